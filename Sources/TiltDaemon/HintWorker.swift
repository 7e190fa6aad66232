import TiltCore
import TiltSystem

/// Computes hints on a thread of its own, never on the event loop (docs/protocol.md,
/// "Hints"). The loop submits jobs; answers come back through `answersReady`, an
/// eventfd the loop watches. The thread, and the 4×4 tables, exist only once a
/// hint was asked for, so an idle daemon costs no more memory than before.
public final class HintWorker {
    /// What the worker runs on each board: the solver, or a test's stand-in.
    public typealias Solve = @Sendable (Board, _ tables: () -> PatternDatabase) -> Solution

    /// The solver's time budget: 4×4 hints are worth up to a second to be shortest
    /// (nearly every 4×4 board is solved optimally within it); bigger boards are
    /// answered by the line-by-line reduction in a tenth of a second.
    public static func budget(side: Int) -> Double { side == 4 ? 1.0 : 0.1 }

    /// The solver with the daemon's budget and clock.
    public static let solver: Solve = { board, tables in
        Solver.solve(board, budget: budget(side: board.side), database: board.side >= 4 ? tables() : nil,
                     clock: MonotonicClock.now)
    }

    public let answersReady: WakeupDescriptor
    private let shared: Shared
    private var thread: JoinableThread?

    /// State both threads touch, behind one lock.
    private final class Shared: Sendable {
        struct Queue {
            var jobs: [HintJob] = []
            var answers: [HintAnswer] = []
            var stopping = false
        }
        let queue = Locked(Queue())
        let jobsReady: WakeupDescriptor
        let answersReady: WakeupDescriptor
        let cache: PatternDatabaseCache?
        let log: Logger
        let solve: Solve

        init(jobsReady: WakeupDescriptor, answersReady: WakeupDescriptor, cache: PatternDatabaseCache?, log: Logger,
             solve: @escaping Solve) {
            self.jobsReady = jobsReady
            self.answersReady = answersReady
            self.cache = cache
            self.log = log
            self.solve = solve
        }
    }

    /// `cache`: where the 4×4 tables are kept between runs (nil: built in memory only).
    public init(cache: PatternDatabaseCache?, log: Logger, solve: @escaping Solve = HintWorker.solver) throws(Errno) {
        answersReady = try WakeupDescriptor()
        shared = Shared(jobsReady: try WakeupDescriptor(), answersReady: answersReady, cache: cache, log: log,
                        solve: solve)
    }

    /// Queues a job (starting the thread on the first one); never blocks.
    public func submit(_ job: HintJob) {
        shared.queue.withLock { $0.jobs.append(job) }
        if thread == nil {
            let shared = shared
            do throws(Errno) {
                thread = try JoinableThread { Self.run(shared) }
            } catch {
                shared.log.error("cannot start the hint worker: \(error); its hints wait for the next try")
                return
            }
        }
        shared.jobsReady.signal()
    }

    /// The answers finished since the last call.
    public func takeAnswers() -> [HintAnswer] {
        answersReady.drain()
        return shared.queue.withLock { queue in
            defer { queue.answers.removeAll() }
            return queue.answers
        }
    }

    /// Ends the thread once the hint it is computing is done, and waits for it.
    public func stop() {
        shared.queue.withLock { $0.stopping = true }
        shared.jobsReady.signal()
        thread?.join()
        thread = nil
    }

    deinit {
        stop()
        try? answersReady.descriptor.close()
        try? shared.jobsReady.descriptor.close()
    }

    private static func run(_ shared: Shared) {
        var memory = HintMemory()
        var tables: PatternDatabase?
        func loadTables() -> PatternDatabase {
            if let tables { return tables }
            let loaded: PatternDatabase
            if let cache = shared.cache {
                let (database, origin) = cache.loadOrBuild()
                switch origin {
                case .loaded:
                    shared.log.info("hint tables read from \(cache.path)")
                case .built(let reason, let saveError):
                    shared.log.info("hint tables built (\(reason))")
                    if let saveError { shared.log.warning("hint tables not cached: \(saveError)") }
                }
                loaded = database
            } else {
                loaded = PatternDatabase()
            }
            tables = loaded
            return loaded
        }
        while true {
            let next = shared.queue.withLock { queue -> (job: HintJob?, stop: Bool) in
                if queue.stopping { return (nil, true) }
                return queue.jobs.isEmpty ? (nil, false) : (queue.jobs.removeFirst(), false)
            }
            if next.stop { return }
            guard let job = next.job else {
                _ = try? Poll.wait([(shared.jobsReady.descriptor, .readable)], timeout: nil)
                shared.jobsReady.drain()
                continue
            }
            let solution: Solution
            if let known = memory.answer(for: job.board) {
                solution = known
            } else {
                solution = shared.solve(job.board, loadTables)
                memory.remember(solution, for: job.board)
            }
            shared.queue.withLock { $0.answers.append(HintAnswer(ticket: job.ticket, revision: job.revision, solution: solution)) }
            shared.answersReady.signal()
        }
    }
}
