// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import TiltSystem
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The state directory (tiltpuzzled(8)): checked and locked before the daemon listens,
/// and a full disk never loses the game a client was told is saved.
@Suite(.serialized) struct StateDirectoryTests {
    /// A directory the daemon may not write, and one it would have to make in it.
    @Test(arguments: ["", "/game"])
    func anUnwritableStateDirectoryStopsTheStartAndSaysWhy(below: String) throws {
        let directory = TemporaryDirectory()
        let readOnly = directory.path + "/ro"
        #expect(mkdir(readOnly, 0o555) == 0 && chmod(readOnly, 0o555) == 0)
        let state = readOnly + below
        // Root writes anywhere: the daemon runs as nobody then.
        let daemon = try Unprivileged.command("tiltpuzzled", in: directory)
        let socket = directory.path + "/d.sock"
        let result = try DaemonExit.run(["--source", "none", "--socket", socket, "--state-dir", state],
                                        launcher: daemon.launcher, executable: daemon.executable)
        #expect(result.status == 73, "EX_CANTCREAT")
        // The reason names the call that failed (`mkdir: Permission denied`).
        #expect(result.output.contains("cannot write in the state directory \(state): "), "\(result.output)")
        #expect(result.output.contains("Permission denied"), "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: socket), "it never listened")
        #expect(try FileManager.default.contentsOfDirectory(atPath: readOnly).isEmpty)
    }

    /// One daemon per directory: a second is refused and named its holder; after
    /// `kill -9` the kernel has released the lock and the next daemon has the game.
    @Test func aSecondDaemonIsRefusedUntilTheFirstIsGoneEvenByKillNine() throws {
        let directory = TemporaryDirectory()
        let first = try DaemonProcess(directory: directory)
        let client = try TestClient(path: first.socketPath)
        client.greeting()
        #expect(client.request(#"{"cmd":"new","size":3,"seed":5,"id":1}"#, id: 1).last?["type"] as? String == "reply")
        let other = directory.path + "/other.sock"
        let second = try DaemonExit.run(["--source", "none", "--socket", other, "--state-dir", first.stateDirectory])
        #expect(second.status == 75, "EX_TEMPFAIL")
        #expect(second.output.contains("the state directory \(first.stateDirectory) is in use by another tiltpuzzled "
                                       + "(process \(first.process.pid))"), "\(second.output)")
        #expect(!FileManager.default.fileExists(atPath: other))
        #expect(first.process.isRunning)
        #expect(client.request(#"{"cmd":"state","id":2}"#, id: 2).first?["size"] as? Int == 3, "the first plays on")
        first.kill9()
        let next = try DaemonProcess(directory: directory)
        let greeting = try #require(try TestClient(path: next.socketPath).greeting())
        #expect(greeting["size"] as? Int == 3)
    }

    /// A real full file system: a 256 KiB tmpfs mounted in a private mount namespace
    /// and filled before the daemon starts; the test reaches it through /proc/PID/root.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"),
                   "needs root to mount a tmpfs in a private mount namespace"))
    func aFullDiskAnswersSaveFailedKeepsTheSavedGameAndSavingResumes() throws {
        let directory = TemporaryDirectory()
        let mountPoint = directory.path + "/state"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let mountFillAndRun = #"mount -t tmpfs -o size=256k,mode=0700 tiltpuzzle-test "$0" && "#
            + #"{ head -c 300000 /dev/zero >"$0/filler" 2>/dev/null; exec "$@"; }"#
        let daemon = try DaemonProcess(directory: directory,
                                       launcher: ["unshare", "--mount", "--propagation", "private",
                                                  "sh", "-c", mountFillAndRun, mountPoint])
        let inside = "/proc/\(daemon.process.pid)/root" + daemon.stateDirectory
        let filler = inside + "/filler"
        func savedSize() throws -> Int? {
            let data = try Data(contentsOf: URL(fileURLWithPath: inside + "/game.json"))
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            return (object?["puzzle"] as? [String: Any])?["size"] as? Int
        }
        let client = try TestClient(path: daemon.socketPath)
        #expect(client.greeting() != nil, "a full disk does not stop the start")
        func newGame(size: Int, id: Int) -> [String: Any]? {
            client.request(#"{"cmd":"new","size":\#(size),"id":\#(id)}"#, id: id).last
        }
        #expect(newGame(size: 5, id: 1)?["code"] as? String == "save-failed")
        #expect(daemon.logShows("No space left on device"))
        #expect(!FileManager.default.fileExists(atPath: inside + "/game.json"))

        #expect(unlink(filler) == 0)
        #expect(newGame(size: 3, id: 2)?["type"] as? String == "reply", "saving resumes with space")
        #expect(try savedSize() == 3)

        #expect(Self.fill(filler) == ENOSPC)
        #expect(newGame(size: 5, id: 3)?["code"] as? String == "save-failed")
        #expect(try savedSize() == 3, "the file keeps the last game a client was told is saved")

        #expect(unlink(filler) == 0)
        #expect(newGame(size: 4, id: 4)?["type"] as? String == "reply")
        #expect(try savedSize() == 4)

        #expect(Self.fill(filler) == ENOSPC)
        #expect(newGame(size: 6, id: 5)?["code"] as? String == "save-failed")
        daemon.terminate()
        #expect(daemon.logShows("stopped, but the game could not be saved"))
        #expect(!daemon.log.contains("the game is saved in"), "no claim of a save that failed")
    }

    /// Writes zeros to `path` until the file system refuses; the error number it gave.
    static func fill(_ path: String) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let written = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 { return errno }
            if written == 0 { return 0 }
        }
    }
}
