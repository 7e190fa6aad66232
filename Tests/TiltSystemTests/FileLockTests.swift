// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltSystem

/// flock(2) through `tryLockExclusively`: one holder per file, released on close.
@Suite struct FileLockTests {
    @Test func aSecondOpenIsRefusedUntilTheHolderCloses() throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-lock")
        defer { folder.remove() }
        let path = folder.path + "/lock"
        let holder = try FileDescriptor.open(path, [.readWrite, .create], permissions: 0o600)
        let other = try FileDescriptor.open(path, [.readWrite])
        defer { try? other.close() }
        #expect(try holder.tryLockExclusively())
        #expect(try holder.tryLockExclusively(), "the holder may take it again")
        #expect(try !other.tryLockExclusively(), "a second open file is refused without waiting")
        try holder.close()
        #expect(try eventually { try other.tryLockExclusively() }, "closing released it")
    }
}
