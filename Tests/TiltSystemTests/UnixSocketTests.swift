// SPDX-License-Identifier: GPL-3.0-or-later
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

    /// The socket gets the mode asked for, and the process's umask is left alone: other
    /// threads create files meanwhile.
    @Test(arguments: [mode_t(0o660), 0o600, 0o666])
    func theSocketHasItsModeAndTheUmaskIsUntouched(mode: mode_t) throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        defer { folder.remove() }
        let path = folder.path + "/s.sock"
        let calls = Locked<[String]>([])
        let socket = try Syscall.withFaults({ name in calls.withLock { $0.append(name) }; return nil }) {
            try UnixSocket.listen(path: path, mode: mode)
        }
        defer { try? socket.close() }
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == mode)
        #expect(calls.withLock { $0.suffix(3) } == ["bind", "chmod", "listen"])
    }

    /// A socket that cannot get its mode is not left behind.
    @Test func aFailedChmodLeavesNoSocket() throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        defer { folder.remove() }
        let path = folder.path + "/s.sock"
        do {
            _ = try Syscall.withFaults({ $0 == "chmod" ? .permissionDenied : nil }) { try UnixSocket.listen(path: path) }
            Issue.record("no error thrown")
        } catch let error as Errno {
            #expect(error == .permissionDenied && error.call == "chmod")
        }
        #expect(access(path, F_OK) == -1)
    }
}
