// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem

/// Saves the game off the event path: the loop hands over the latest game, a
/// worker thread writes it, and a burst of changes becomes one write (only the
/// newest pending game is kept). Completions come back through `completionsReady`.
public final class Persister {
    public struct Completion: Sendable, Equatable {
        public var generation: Int
        public var failure: SaveFailure?
    }

    /// A game to write.
    private struct Job: Sendable {
        var game: Game
        var time: Double
    }

    /// What the worker thread needs: immutable, so it may cross to it.
    private final class Context: Sendable {
        let store: StateStore
        /// Holds one job: a newer game replaces one not yet written.
        let jobs: HandOff<Job>
        let completions: HandOff<Completion>

        init(store: StateStore, jobs: HandOff<Job>, completions: HandOff<Completion>) {
            self.store = store
            self.jobs = jobs
            self.completions = completions
        }
    }

    public let store: StateStore
    private let context: Context
    private var worker: WorkerThread?

    public init(store: StateStore) throws(Errno) {
        self.store = store
        let jobs = try HandOff<Job>(limit: 1)
        let completions: HandOff<Completion>
        do throws(Errno) {
            completions = try HandOff()
        } catch {
            jobs.close()
            throw error
        }
        let context = Context(store: store, jobs: jobs, completions: completions)
        self.context = context
        do throws(Errno) {
            worker = try WorkerThread { stop in Self.run(context, stop: stop) }
        } catch {
            jobs.close()
            completions.close()
            throw error
        }
    }

    deinit {
        finish()
        context.jobs.close()
        context.completions.close()
    }

    /// Readable while completions wait: the loop watches it and then calls `takeCompletions`.
    public var completionsReady: WakeupDescriptor { context.completions.ready }

    /// Asks for `game` to be written; never blocks.
    public func save(_ game: Game, at now: Double) {
        context.jobs.post(Job(game: game, time: now))
    }

    /// The saves finished since the last call.
    public func takeCompletions() -> [Completion] { context.completions.take() }

    /// Writes what is pending, then ends the worker (at shutdown): every requested
    /// save is on disk, or has its failure among the completions, when this returns.
    public func finish() {
        worker?.stop()
        worker = nil
    }

    // MARK: the worker thread

    private static func run(_ context: Context, stop: WorkerThread.Stop) {
        while true {
            // Read before taking: a save asked for before the stop is then among the jobs.
            let stopping = stop.isRequested
            let jobs = context.jobs.take()
            for job in jobs {
                var failure: SaveFailure?
                do throws(Errno) {
                    try context.store.save(SavedGame(game: job.game, at: job.time))
                } catch {
                    failure = SaveFailure(path: context.store.path, errno: error)
                }
                context.completions.post(Completion(generation: job.game.generation, failure: failure))
            }
            guard jobs.isEmpty else { continue }
            if stopping { return }
            _ = try? Poll.wait([(stop.descriptor, .readable), (context.jobs.ready.descriptor, .readable)], timeout: nil)
        }
    }
}

/// A save of the game that did not reach the disk.
public struct SaveFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var errno: Errno
    public init(path: String, errno: Errno) {
        self.path = path
        self.errno = errno
    }
    public var description: String { "\(path): \(errno)" }
}
