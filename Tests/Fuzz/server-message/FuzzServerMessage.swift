// SPDX-License-Identifier: GPL-3.0-or-later
import FuzzSupport
import TiltCore
import TiltWire

/// A line from the daemon as a client reads it. What a client accepts, it can act on
/// (a state's board indexes safely), and re-encoding a decoded message gives a line
/// that decodes to the same message.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServerMessage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let decoded = withExactCopy(input.bytes) { bytes in try? ServerMessage.decode(bytes) }
    guard let message = decoded else { return 0 }
    if case .state(let state) = message {
        require(Board.sides.contains(state.size) && state.board.count == state.size * state.size,
                "a state of the wrong shape was accepted")
        require(state.board.indices.contains(state.empty) && state.board[state.empty] == state.board.count - 1,
                "a state whose empty cell is not the empty tile was accepted")
    }
    let line = message.encoded()
    require(line.dropLast().allSatisfy { $0 != UInt8(ascii: "\n") }, "a message is not one line")
    let again = line.dropLast().withUnsafeBufferPointer { try? ServerMessage.decode($0) }
    require(again == message, "\(message) encodes as \(String(decoding: line, as: UTF8.self)), which decodes differently")
    return 0
}
