// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSolver
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// The 4×4 hint tables cached in the state directory (docs/protocol.md, "Hints"): read
/// and checked on the first hint that needs them, else built and written atomically
/// (`FileDescriptor.replaceAtomically`, as `StateStore` saves the game). A file
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
        loadOrBuild(unless: { false })!
    }

    /// `loadOrBuild`, giving up the building when `stop` says so (nil; nothing written).
    public func loadOrBuild(unless stop: () -> Bool) -> (database: PatternDatabase, origin: Origin)? {
        let reason: String
        do throws(Errno) {
            // Anything longer than the tables is not ours.
            let bytes = try FileDescriptor.readAll(path, limit: PatternDatabase.serializedCount)
            do throws(PatternDatabase.LoadError) {
                return (try PatternDatabase(serialized: bytes), .loaded)
            } catch {
                reason = error.description
            }
        } catch where error == Errno.fileTooLarge {
            reason = "the file is longer than the tables"
        } catch {
            reason = error == .noSuchFile ? "no cache yet" : "cannot read \(path): \(error)"
        }
        guard let database = PatternDatabase(unless: stop) else { return nil }
        var saveError: String?
        do throws(Errno) {
            try FileDescriptor.replaceAtomically(path, with: database.serialized())
        } catch {
            saveError = "cannot write \(path): \(error)"
        }
        return (database, .built(reason: reason, saveError: saveError))
    }
}
