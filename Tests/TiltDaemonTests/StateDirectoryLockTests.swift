// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltDaemon
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// One daemon per state directory (docs/tiltpuzzled.8.md): the lock names its holder.
@Suite struct StateDirectoryLockTests {
    @Test func aSecondLockIsRefusedNamingTheHolderAndFreedWhenItGoes() throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-state")
        defer { folder.remove() }
        var held: StateDirectoryLock? = try StateDirectoryLock(directory: folder.path)
        #expect(held != nil)
        #expect(try FileDescriptor.readText(folder.path + "/" + StateDirectoryLock.name) == "\(getpid())\n")
        do {
            _ = try StateDirectoryLock(directory: folder.path)
            Issue.record("a second lock on the same directory was taken")
        } catch {
            guard case .inUse(let holder) = error else {
                Issue.record("not refused as in use: \(error)")
                return
            }
            #expect(holder == getpid())
        }
        held = nil
        #expect(throws: Never.self) { _ = try StateDirectoryLock(directory: folder.path) }
    }
}
