import FuzzSupport
import TiltWire

/// The JSON reader on arbitrary bytes: it either fails cleanly or yields a value
/// that the writer turns into one line which reads back to the same value.
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
    return 0
}
