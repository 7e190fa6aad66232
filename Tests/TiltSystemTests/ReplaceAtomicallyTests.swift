// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

@Suite struct ReplaceAtomicallyTests {
    static func contents(_ path: String) throws -> [UInt8] { try FileDescriptor.readAll(path, limit: 1 << 20) }

    @Test func replacesTheFileWholeAndLeavesNoTemporary() throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        defer { folder.remove() }
        let path = folder.path + "/game.json"
        try FileDescriptor.replaceAtomically(path, with: Array("first".utf8))
        try FileDescriptor.replaceAtomically(path, with: Array("second".utf8))
        #expect(try Self.contents(path) == Array("second".utf8))
        #expect(access(path + ".tmp", F_OK) == -1)
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o600)
    }

    /// The mode asked for, set on the file itself: not narrowed by the process's umask,
    /// which a service may have set (systemd's `UMask=`).
    @Test func theFileGetsExactlyThePermissionsAskedFor() throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        defer { folder.remove() }
        let path = folder.path + "/program"
        let calls = Locked<[String]>([])
        try Syscall.withFaults({ name in calls.withLock { $0.append(name) }; return nil }) {
            try FileDescriptor.replaceAtomically(path, with: Array("#!/bin/sh\n".utf8), permissions: 0o755)
        }
        #expect(calls.withLock { $0.prefix(2) } == ["open", "fchmod"])
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_mode & 0o7777 == 0o755)
    }

    /// A crash is a failure anywhere on the way: the old file stays whole.
    @Test(arguments: ["open", "fchmod", "write", "fsync", "rename"])
    func aFailureLeavesThePreviousFileAndNoTemporary(call: String) throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        defer { folder.remove() }
        let path = folder.path + "/game.json"
        try FileDescriptor.replaceAtomically(path, with: Array("first".utf8))
        do {
            try Syscall.withFaults({ $0 == call ? .noSpace : nil }) {
                try FileDescriptor.replaceAtomically(path, with: Array("second".utf8))
            }
            Issue.record("no error thrown")
        } catch let error as Errno {
            #expect(error == .noSpace && error.call == call)
        }
        #expect(try Self.contents(path) == Array("first".utf8))
        #expect(access(path + ".tmp", F_OK) == -1)
    }

    @Test func aFileOverItsLimitIsNotRead() throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        defer { folder.remove() }
        let path = folder.path + "/big"
        try FileDescriptor.replaceAtomically(path, with: [UInt8](repeating: 1, count: 100))
        #expect(throws: Errno.fileTooLarge) { try FileDescriptor.readAll(path, limit: 99) }
        #expect(try FileDescriptor.readAll(path, limit: 100).count == 100)
    }
}
