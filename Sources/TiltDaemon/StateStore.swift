import FoundationEssentials
import TiltCore
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// What the daemon saves: everything a restart needs to continue the game.
public struct SavedGame: Codable, Sendable, Equatable {
    public static let currentFormat = 1

    public var format = SavedGame.currentFormat
    public var revision: Int
    /// Seconds of play so far.
    public var time: Double
    public var puzzle: Puzzle
    /// The calibrated neutral pose (device frame), if any.
    public var neutral: [Double]?

    public init(game: Game, at now: Double) {
        revision = game.revision
        time = game.playTime(at: now)
        puzzle = game.puzzle
        let pose = game.detector.neutral
        neutral = pose == .flat ? nil : [pose.x, pose.y, pose.z]
    }
}

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
            if mkdir(partial, 0o700) == -1, errno != EEXIST { throw Errno.current }
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
        do {
            let saved = try JSONDecoder().decode(SavedGame.self, from: Data(data))
            guard saved.format == SavedGame.currentFormat else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unknown format \(saved.format)"))
            }
            return .loaded(saved)
        } catch {
            let aside = path + ".corrupt-\(Int(MonotonicClock.wallClock()))"
            let moved = rename(path, aside) == 0
            return .corrupt(reason: Self.describe(error), setAside: moved ? aside : nil)
        }
    }

    public func save(_ saved: SavedGame) throws(Errno) {
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            data = try encoder.encode(saved)
        } catch {
            throw Errno.invalidArgument
        }
        let temporary = path + ".tmp"
        let fd = try FileDescriptor.open(temporary, [.writeOnly, .create, .truncate], permissions: 0o600)
        do throws(Errno) {
            try fd.writeAll(Array(data) + [UInt8(ascii: "\n")])
            try fd.sync()
            try fd.close()
        } catch {
            try? fd.close()
            unlink(temporary)
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

    static func describe(_ error: any Error) -> String {
        if let error = error as? DecodingError {
            switch error {
            case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
                 .valueNotFound(_, let context):
                let path = context.codingPath.map(\.stringValue).joined(separator: ".")
                return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
            @unknown default: break
            }
        }
        return "\(error)"
    }
}
