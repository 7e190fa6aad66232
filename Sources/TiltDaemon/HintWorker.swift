// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSolver
import TiltSystem

/// Computes hints on a thread of its own, never on the event loop (docs/protocol.md,
/// "Hints"). The loop submits jobs; answers come back through `answersReady`, an
/// eventfd the loop watches. The thread, and the 4×4 tables (made on a thread of
/// their own, `HintTables`), exist only once a hint was asked for, so an idle daemon costs no more memory than before; a 4×4
/// search is split over a team of helper threads, one more per core up to four
/// (docs/solver.md, "Two cores"), started with the first 4×4 hint.
public final class HintWorker {
    /// What the worker runs on each board: the solver, or a test's stand-in. `tables`
    /// and `team` are made on first use.
    public typealias Solve = @Sendable (Board, _ tables: (_ until: Double) -> PatternDatabase?, _ team: () -> SearchTeam) -> Solution

    /// The hint threads' nice value, the largest: against a program at the default
    /// priority a hint thread gets about 1.5 % of a core, so the event loop and the
    /// player's programs hardly wait for it, and a hint's budget, in wall-clock time,
    /// still ends with an answer (docs/solver.md, "Two cores").
    public static let nice: Int32 = 19

    /// The most threads a 4×4 hint is split over, the worker's own included.
    public static let teamLimit = 4

    /// The solver's time budget: 4×4 hints are worth up to a second to be shortest
    /// (nearly every 4×4 board is solved optimally within it); bigger boards are
    /// answered by the line-by-line reduction in a tenth of a second.
    public static func budget(side: Int) -> Double { side == 4 ? 1.0 : Solver.defaultBudget }

    /// The solver with the daemon's budget and clock.
    public static let solver: Solve = { board, tables, team in
        Solver.solve(board, budget: budget(side: board.side), tables: tables,
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
        // A hint takes a small share of a core the event loop or the player's other
        // programs want, never none (docs/solver.md, "Two cores"); set before the
        // helpers and the tables' thread start: they inherit it.
        do throws(Errno) {
            try CurrentThread.setNice(nice)
        } catch {
            context.log.warning("hints computed at the event loop's priority: \(error)")
        }
        var memory = HintMemory()
        var tables: HintTables?
        func loadTables(until deadline: Double) -> PatternDatabase? {
            if tables == nil {
                do throws(Errno) {
                    tables = try HintTables(cache: context.cache, log: context.log)
                } catch {
                    context.log.warning("no hint tables: \(error)")
                    return nil
                }
            }
            return tables?.tables(until: deadline)
        }
        defer { tables?.stop() }
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
