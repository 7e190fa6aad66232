import TiltCore
import TiltSystem

/// Computes hints on a thread of its own, never on the event loop (docs/protocol.md,
/// "Hints"). The loop submits jobs; answers come back through `answersReady`, an
/// eventfd the loop watches. The thread, and the 4×4 tables, exist only once a
/// hint was asked for, so an idle daemon costs no more memory than before; a 4×4
/// search is split over a team of helper threads, one more per core up to four
/// (docs/solver.md, "Two cores"), started with the first 4×4 hint.
public final class HintWorker {
    /// What the worker runs on each board: the solver, or a test's stand-in. `tables`
    /// and `team` are made on first use.
    public typealias Solve = @Sendable (Board, _ tables: () -> PatternDatabase, _ team: () -> SearchTeam) -> Solution

    /// The most threads a 4×4 hint is split over, the worker's own included.
    public static let teamLimit = 4

    /// The solver's time budget: 4×4 hints are worth up to a second to be shortest
    /// (nearly every 4×4 board is solved optimally within it); bigger boards are
    /// answered by the line-by-line reduction in a tenth of a second.
    public static func budget(side: Int) -> Double { side == 4 ? 1.0 : Solver.defaultBudget }

    /// The solver with the daemon's budget and clock.
    public static let solver: Solve = { board, tables, team in
        Solver.solve(board, budget: budget(side: board.side), database: board.side >= 4 ? tables() : nil,
                     team: board.side == 4 ? team() : .alone, clock: MonotonicClock.now)
    }

    /// Boards to solve, from the loop to the worker.
    private let jobs: HandOff<HintJob>
    /// Solutions, from the worker to the loop, which watches `answersReady`.
    private let answers: HandOff<HintAnswer>
    private let context: Context
    private var worker: WorkerThread?

    /// What the worker thread needs: immutable, so it may cross to it.
    private final class Context: Sendable {
        let jobs: HandOff<HintJob>
        let answers: HandOff<HintAnswer>
        let cache: PatternDatabaseCache?
        let log: Logger
        let solve: Solve

        init(jobs: HandOff<HintJob>, answers: HandOff<HintAnswer>, cache: PatternDatabaseCache?, log: Logger,
             solve: @escaping Solve) {
            self.jobs = jobs
            self.answers = answers
            self.cache = cache
            self.log = log
            self.solve = solve
        }
    }

    /// `cache`: where the 4×4 tables are kept between runs (nil: built in memory only).
    public init(cache: PatternDatabaseCache?, log: Logger, solve: @escaping Solve = HintWorker.solver) throws(Errno) {
        jobs = try HandOff()
        do throws(Errno) {
            answers = try HandOff()
        } catch {
            jobs.close()
            throw error
        }
        context = Context(jobs: jobs, answers: answers, cache: cache, log: log, solve: solve)
    }

    /// Readable while answers wait: the loop watches it and then calls `takeAnswers`.
    public var answersReady: WakeupDescriptor { answers.ready }

    /// Queues a job (starting the thread on the first one); never blocks.
    public func submit(_ job: HintJob) {
        jobs.post(job)
        guard worker == nil else { return }
        let context = context
        do throws(Errno) {
            worker = try WorkerThread { stop in Self.run(context, stop: stop) }
        } catch {
            context.log.error("cannot start the hint worker: \(error); its hints wait for the next try")
        }
    }

    /// The answers finished since the last call.
    public func takeAnswers() -> [HintAnswer] { answers.take() }

    /// Ends the thread once the hint it is computing is done, and waits for it.
    public func stop() {
        worker?.stop()
        worker = nil
    }

    deinit {
        stop()
        jobs.close()
        answers.close()
    }

    private static func run(_ context: Context, stop: WorkerThread.Stop) {
        // A hint takes only the cores the event loop and the player's other programs
        // leave (docs/protocol.md, "Hints"); set before the helpers start: they inherit it.
        do throws(Errno) {
            try CurrentThread.runOnlyWhenIdle()
        } catch {
            context.log.warning("hints computed at the event loop's priority: \(error)")
        }
        var memory = HintMemory()
        var tables: PatternDatabase?
        func loadTables() -> PatternDatabase {
            if let tables { return tables }
            let loaded: PatternDatabase
            if let cache = context.cache {
                let (database, origin) = cache.loadOrBuild()
                switch origin {
                case .loaded:
                    context.log.info("hint tables read from \(cache.path)")
                case .built(let reason, let saveError):
                    context.log.info("hint tables built (\(reason))")
                    if let saveError { context.log.warning("hint tables not cached: \(saveError)") }
                }
                loaded = database
            } else {
                loaded = PatternDatabase()
            }
            tables = loaded
            return loaded
        }
        var team: ThreadTeam?
        var teamFailed = false
        func searchTeam() -> SearchTeam {
            if team == nil, !teamFailed {
                do throws(Errno) {
                    team = try ThreadTeam(size: min(teamLimit, try CurrentThread.cores()))
                } catch {
                    teamFailed = true
                    context.log.warning("4×4 hints searched on one thread: cannot start its helpers: \(error)")
                }
            }
            guard let team else { return .alone }
            return SearchTeam(size: team.size, run: team.run)
        }
        var waiting: [HintJob] = []
        while !stop.isRequested {
            guard !waiting.isEmpty else {
                _ = try? Poll.wait([(stop.descriptor, .readable), (context.jobs.ready.descriptor, .readable)], timeout: nil)
                waiting = context.jobs.take()
                continue
            }
            let job = waiting.removeFirst()
            let solution: Solution
            if let known = memory.answer(for: job.board) {
                solution = known
            } else {
                solution = context.solve(job.board, loadTables, searchTeam)
                memory.remember(solution, for: job.board)
            }
            context.answers.post(HintAnswer(ticket: job.ticket, revision: job.revision, solution: solution))
        }
    }
}
