// SPDX-License-Identifier: GPL-3.0-or-later
import FuzzSupport
import TiltWire

/// The JSON reader on arbitrary bytes: it either fails cleanly or yields a value
/// that the writer turns into one line which reads back to the same value; a number
/// read as a whole number has the value its text says.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let parsed = withExactCopy(input.bytes) { bytes in try? JSONParser.parse(bytes) }
    guard let value = parsed else { return 0 }
    let text = value.encoded
    require(!text.contains(UInt8(ascii: "\n")), "the writer put a newline inside a value")
    let again = text.withUnsafeBufferPointer { try? JSONParser.parse($0) }
    require(again == value, "\(value) was written as \(String(decoding: text, as: UTF8.self)), which does not read back")
    require(again?.encoded == text, "writing is not stable")
    checkWholeNumbers(value)
    return 0
}

/// A number read as whole has that value: the standard library's reading of the text
/// (correctly rounded, so exact below 2⁵³) agrees, and so does the plain integer text.
func checkWholeNumbers(_ value: JSONValue) {
    switch value {
    case .number(let text):
        if let whole = value.int {
            require(JSONValue.number(String(whole)).int == whole, "\(text) read as \(whole), which reads back differently")
            if whole.magnitude < 1 << 53 { require(Double(text) == Double(whole), "\(text) read as the whole \(whole)") }
        }
        if let whole = value.uint64, whole < 1 << 53 {
            require(Double(text) == Double(whole), "\(text) read as the unsigned whole \(whole)")
        }
    case .array(let elements): elements.forEach(checkWholeNumbers)
    case .object(let members): members.forEach { checkWholeNumbers($0.value) }
    case .null, .bool, .string: break
    }
}
