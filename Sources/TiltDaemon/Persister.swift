import Dispatch
import TiltSystem

/// Saves the game off the event path: the loop hands over the latest game, a
/// worker writes it, and a burst of changes becomes one write (only the newest
/// pending game is kept). Completions come back through `wakeup`.
public final class Persister: Sendable {
    public struct Completion: Sendable, Equatable {
        public var generation: Int
        public var error: String?
    }

    private struct State {
        var pending: (game: Game, generation: Int, time: Double)?
        var busy = false
        var completions: [Completion] = []
    }

    public let store: StateStore
    public let wakeup: WakeupDescriptor
    private let state = Locked(State())
    private let queue = DispatchQueue(label: "tiltpuzzled.save")

    public init(store: StateStore) throws(Errno) {
        self.store = store
        wakeup = try WakeupDescriptor()
    }

    public func save(_ game: Game, at now: Double) {
        let start = state.withLock { state -> Bool in
            state.pending = (game, game.generation, now)
            if state.busy { return false }
            state.busy = true
            return true
        }
        if start { queue.async { self.work() } }
    }

    private func work() {
        while let job = state.withLock({ state in
            let job = state.pending
            state.pending = nil
            if job == nil { state.busy = false }
            return job
        }) {
            var error: String?
            do throws(Errno) {
                try store.save(SavedGame(game: job.game, at: job.time))
            } catch let failure {
                error = "\(store.path): \(failure)"
            }
            state.withLock { $0.completions.append(Completion(generation: job.generation, error: error)) }
            wakeup.signal()
        }
    }

    /// The saves finished since the last call.
    public func takeCompletions() -> [Completion] {
        wakeup.drain()
        return state.withLock { state in
            defer { state.completions.removeAll() }
            return state.completions
        }
    }

    /// Waits until every requested save is on disk (at shutdown).
    public func waitUntilIdle() {
        while state.withLock({ $0.busy || $0.pending != nil }) {
            queue.sync {}
        }
    }
}
