// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

@Suite struct OpenWatchTests {
    @Test func seesEachOpenOnceAndNothingElse() throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        defer { folder.remove() }
        let path = folder.path + "/node"
        try FileDescriptor.replaceAtomically(path, with: [1, 2, 3])
        let watch = try OpenWatch(path)
        #expect(!watch.opened(), "nothing yet")
        #expect(try FileDescriptor.readAll(path, limit: 16) == [1, 2, 3])
        #expect(watch.opened(), "a read's open")
        #expect(!watch.opened(), "told once")
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(!watch.opened(), "a stat is no open")
        watch.close()
        #expect(!watch.opened(), "closed: nothing more")
    }

    @Test(arguments: ["inotify_init1", "inotify_add_watch"])
    func aFailureNamesItsCall(call: String) throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        defer { folder.remove() }
        do {
            _ = try Syscall.withFaults({ $0 == call ? .permissionDenied : nil }) { try OpenWatch(folder.path) }
            Issue.record("no error thrown")
        } catch let error as Errno {
            #expect(error == .permissionDenied && error.call == call)
        }
    }

    @Test func aMissingFileCannotBeWatched() throws {
        #expect(throws: Errno.noSuchFile) { try OpenWatch("/nonexistent/tiltpuzzle-node") }
    }
}
