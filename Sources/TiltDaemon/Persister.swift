import TiltSystem

/// Saves the game off the event path: the loop hands over the latest game, a
/// worker thread writes it, and a burst of changes becomes one write (only the
/// newest pending game is kept). Completions come back through `completionsReady`.
public final class Persister {
    public struct Completion: Sendable, Equatable {
        public var generation: Int
        public var failure: SaveFailure?
    }

    /// The newest game not yet written.
    private typealias Pending = (game: Game, generation: Int, time: Double)

    /// What the worker thread needs: immutable, so it may cross to it.
    private final class Context: Sendable {
        let store: StateStore
        let pending = Locked<Pending?>(nil)
        /// Signalled when a game is pending; the worker waits on it.
        let work: WakeupDescriptor
        let completions: HandOff<Completion>

        init(store: StateStore, work: WakeupDescriptor, completions: HandOff<Completion>) {
            self.store = store
            self.work = work
            self.completions = completions
        }
    }

    public let store: StateStore
    private let context: Context
    private var worker: WorkerThread?

    public init(store: StateStore) throws(Errno) {
        self.store = store
        let work = try WakeupDescriptor()
        let completions: HandOff<Completion>
        do throws(Errno) {
            completions = try HandOff()
        } catch {
            try? work.descriptor.close()
            throw error
        }
        let context = Context(store: store, work: work, completions: completions)
        self.context = context
        do throws(Errno) {
            worker = try WorkerThread { stop in Self.run(context, stop: stop) }
        } catch {
            try? work.descriptor.close()
            completions.close()
            throw error
        }
    }

    deinit {
        finish()
        try? context.work.descriptor.close()
        context.completions.close()
    }

    /// Readable while completions wait: the loop watches it and then calls `takeCompletions`.
    public var completionsReady: WakeupDescriptor { context.completions.ready }

    /// Asks for `game` to be written; never blocks.
    public func save(_ game: Game, at now: Double) {
        context.pending.withLock { $0 = (game, game.generation, now) }
        context.work.signal()
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
            while let job = context.pending.withLock({ pending in
                defer { pending = nil }
                return pending
            }) {
                var failure: SaveFailure?
                do throws(Errno) {
                    try context.store.save(SavedGame(game: job.game, at: job.time))
                } catch {
                    failure = SaveFailure(path: context.store.path, errno: error)
                }
                context.completions.post(Completion(generation: job.generation, failure: failure))
            }
            if stop.isRequested {
                // A save asked for before the stop is seen here: it is written first.
                if context.pending.withLock({ $0 == nil }) { return }
                continue
            }
            _ = try? Poll.wait([(stop.descriptor, .readable), (context.work.descriptor, .readable)], timeout: nil)
            context.work.drain()
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
