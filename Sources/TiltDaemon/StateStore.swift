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
        case none
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
            } catch where error == Errno(rawValue: EEXIST) {}
        }
    }

    public func load() -> LoadResult {
        let data: [UInt8]
        do throws(Errno) {
            data = try readAll(path)
        } catch {
            if error == .noSuchFile { return .none }
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
        let temporary = path + ".tmp"
        let fd = try FileDescriptor.open(temporary, [.writeOnly, .create, .truncate], permissions: 0o600)
        do throws(Errno) {
            try fd.writeAll(saved.encoded())
            try fd.sync()
            try fd.close()
        } catch {
            try? fd.close()
            _ = try? Syscall.call("unlink") { unlink(temporary) }
            throw error
        }
        _ = try Syscall.call("rename") { rename(temporary, path) }
        let dir = try FileDescriptor.open(directory, [.directory])
        defer { try? dir.close() }
        try dir.sync()
    }

    private func readAll(_ path: String) throws(Errno) -> [UInt8] {
        let fd = try FileDescriptor.open(path)
        defer { try? fd.close() }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try fd.read(into: &chunk)
            if count == 0 { return result }
            result += chunk[..<count]
            // A game file is a few kilobytes; anything huge is not ours.
            if result.count > 16 << 20 { throw Errno(rawValue: EFBIG) }
        }
    }
}
