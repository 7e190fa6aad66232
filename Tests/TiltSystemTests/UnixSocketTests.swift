import Foundation
import Testing
import TiltSystem

@Suite struct UnixSocketTests {
    @Test func listeningNeverDeletesAFileThatIsNotASocket() throws {
        let path = NSTemporaryDirectory() + "notes-\(getpid()).txt"
        try "keep me".write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        #expect(throws: Errno.fileExists) { try UnixSocket.listen(path: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
    }

    @Test func aStaleSocketIsReplacedAndALiveOneRefused() throws {
        let path = NSTemporaryDirectory() + "s-\(getpid()).sock"
        defer { unlink(path) }
        let first = try UnixSocket.listen(path: path)
        #expect(throws: Errno.addressInUse) { try UnixSocket.listen(path: path) }
        try first.close()   // the file stays: a crashed daemon's leftover
        let second = try UnixSocket.listen(path: path)
        try second.close()
    }
}
