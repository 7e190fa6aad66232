// SPDX-License-Identifier: GPL-3.0-or-later
import FuzzSupport
import TiltCore
import TiltWire

/// One protocol line as the daemon reads it. A request that decodes encodes to a
/// line that decodes to the same request; a rejection becomes an error message
/// that a client reads back with the same code and id.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let result = withExactCopy(input.bytes) { bytes in Result { () throws(ClientRequest.Rejection) in try ClientRequest.decode(bytes) } }
    switch result {
    case .success(let request):
        let line = request.encoded()
        require(line.last == UInt8(ascii: "\n") && line.dropLast().allSatisfy { $0 != UInt8(ascii: "\n") },
                "a request is not one line")
        let again = line.dropLast().withUnsafeBufferPointer { try? ClientRequest.decode($0) }
        require(again == request, "\(request) encodes as \(String(decoding: line, as: UTF8.self)), which decodes differently")
        if case .move(let index, _) = request.command { require(index >= 0, "negative index") }
        if case .slide(let index) = request.command { require(index >= 0, "negative index") }
        if case .new(let size?, _, _, _) = request.command { require(Board.sides.contains(size), "size \(size) accepted") }
    case .failure(let rejection):
        let message = ServerMessage.error(id: rejection.id, code: rejection.code, message: rejection.message)
        let line = message.encoded()
        require(line.dropLast().allSatisfy { $0 != UInt8(ascii: "\n") }, "an error message is not one line")
        let decoded = line.dropLast().withUnsafeBufferPointer { try? ServerMessage.decode($0) }
        require(decoded == message, "the error \(message) does not read back: \(String(decoding: line, as: UTF8.self))")
    }
    return 0
}
