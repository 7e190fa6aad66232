import TiltCore
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// The 4×4 hint tables cached in the state directory (docs/protocol.md, "Hints"): read
/// and checked on the first hint that needs them, else built and written atomically
/// (temporary file, fsync, rename, fsync the directory, as `StateStore` does). A file
/// that is damaged, truncated or of another format is never trusted: it is rebuilt
/// and replaced.
public struct PatternDatabaseCache: Sendable {
    public let path: String

    public init(directory: String) { path = directory + "/hint-tables-4x4.tpdb" }

    /// Where the tables came from, for the log and the tests.
    public enum Origin: Equatable, Sendable {
        case loaded
        /// Built; `reason` says why the file was not used, `saveError` why it could not be written.
        case built(reason: String, saveError: String?)
    }

    public func loadOrBuild() -> (database: PatternDatabase, origin: Origin) {
        let reason: String
        do throws(Errno) {
            let bytes = try readAll()
            do throws(PatternDatabase.LoadError) {
                return (try PatternDatabase(serialized: bytes), .loaded)
            } catch {
                reason = error.description
            }
        } catch {
            reason = error == .noSuchFile ? "no cache yet" : "cannot read \(path): \(error)"
        }
        let database = PatternDatabase()
        var saveError: String?
        do throws(Errno) {
            try save(database.serialized())
        } catch {
            saveError = "cannot write \(path): \(error)"
        }
        return (database, .built(reason: reason, saveError: saveError))
    }

    private func save(_ bytes: [UInt8]) throws(Errno) {
        let temporary = path + ".tmp"
        let fd = try FileDescriptor.open(temporary, [.writeOnly, .create, .truncate], permissions: 0o600)
        do throws(Errno) {
            try fd.writeAll(bytes)
            try fd.sync()
            try fd.close()
        } catch {
            try? fd.close()
            _ = try? Syscall.call("unlink") { unlink(temporary) }
            throw error
        }
        _ = try Syscall.call("rename") { rename(temporary, path) }
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let dir = try FileDescriptor.open(directory.isEmpty ? "/" : directory, [.directory])
        defer { try? dir.close() }
        try dir.sync()
    }

    private func readAll() throws(Errno) -> [UInt8] {
        let fd = try FileDescriptor.open(path)
        defer { try? fd.close() }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let count = try fd.read(into: &chunk)
            if count == 0 { return result }
            result += chunk[..<count]
            // Anything longer than the tables is not ours; the length check rejects it.
            if result.count > PatternDatabase.serializedCount { return result }
        }
    }
}
