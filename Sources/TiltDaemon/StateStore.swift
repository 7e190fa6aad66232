// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// The game file in the state directory, written atomically: a temporary file,
/// fsync, rename over the old one, fsync the directory. A crash at any point
/// leaves either the old or the new file, whole.
public struct StateStore: Sendable {
    public let directory: String
    public var path: String { directory + "/game.json" }

    public init(directory: String) { self.directory = directory }

    public enum LoadResult: Equatable {
        case loaded(SavedGame)
        case nothingSaved
        /// The file was unreadable and moved to `setAside`; `reason` says why.
        case corrupt(reason: String, setAside: String?)
    }

    /// Creates the state directory (and its parents) if needed, mode 0700.
    public func prepare() throws(Errno) {
        var partial = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            partial += "/" + component
            do throws(Errno) {
                _ = try Syscall.call("mkdir") { mkdir(partial, 0o700) }
            } catch where error == Errno.fileExists {}
        }
    }

    /// Proves the daemon can write in the directory before it takes any game: a file
    /// written the way the game is (temporary file, fsync, rename, fsync of the
    /// directory), then removed. A disk that is only full passes: saves then answer
    /// `save-failed` until space comes back.
    public func proveWritable() throws(Errno) {
        let probe = directory + "/.write-test-\(getpid())"
        try FileDescriptor.replaceAtomically(probe, with: [])
        _ = try Syscall.call("unlink") { unlink(probe) }
    }

    public func load() -> LoadResult {
        let data: [UInt8]
        do throws(Errno) {
            // A game file is a few kilobytes; anything huge is not ours.
            data = try FileDescriptor.readAll(path, limit: 16 << 20)
        } catch {
            if error == .noSuchFile { return .nothingSaved }
            return .corrupt(reason: "cannot read \(path): \(error)", setAside: nil)
        }
        do throws(SavedGame.Problem) {
            return .loaded(try SavedGame(json: data))
        } catch {
            let aside = path + ".corrupt-\(Int(MonotonicClock.wallClock()))"
            let moved = (try? Syscall.call("rename") { rename(path, aside) }) != nil
            return .corrupt(reason: error.description, setAside: moved ? aside : nil)
        }
    }

    public func save(_ saved: SavedGame) throws(Errno) {
        try FileDescriptor.replaceAtomically(path, with: saved.encoded())
    }
}
