// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltCore
@testable import TiltDaemon
import TiltSolver
import TiltSystem
import TiltWire

/// A harness whose hint worker is the test: jobs wait in `jobs` until the test answers
/// them, like a solver that takes as long as the test likes.
extension HubHarness {
    /// A 3×3 game: its hints need no 4×4 tables, so the tests stay quick.
    static func small() -> HubHarness {
        HubHarness(game: Game(puzzle: Puzzle(side: 3), detector: TiltDetector()))
    }

    func collectHints() -> HintJobs {
        let jobs = HintJobs()
        hints = jobs
        return jobs
    }

    /// Answers every waiting job with the real solver, on the board of the job.
    func answer(_ jobs: HintJobs) {
        let answers = jobs.waiting.map { job in
            HintAnswer(ticket: job.ticket, revision: job.revision,
                       solution: Solver.solve(job.board, budget: 10, clock: MonotonicClock.now))
        }
        jobs.waiting.removeAll()
        hub.hintsAnswered(answers)
    }
}

final class HintJobs {
    var waiting: [HintJob] = []
}

@Suite struct HubHintTests {
    static func directions(_ message: JSONValue?) -> [Direction] {
        guard case .array(let items)? = message?["solution"] else { return [] }
        return items.compactMap { $0.string.flatMap(Direction.init(rawValue:)) }
    }

    @Test func aHintAnswersForItsRevisionAndReplayingItSolvesTheBoard() {
        let harness = HubHarness.small()
        let jobs = harness.collectHints()
        let (id, client) = harness.attach()
        harness.send(#"{"cmd":"new","size":3,"seed":11}"# + "\n", from: id)
        let revision = harness.hub.game.revision
        client.clear()
        harness.send(#"{"cmd":"hint","id":"h"}"# + "\n", from: id)
        // Nothing yet: the hint is computed off the loop.
        #expect(client.types().isEmpty)
        #expect(jobs.waiting.map(\.board) == [harness.hub.game.puzzle.board])
        harness.answer(jobs)
        #expect(client.types() == ["reply"])
        let reply = client.messages[0]
        #expect(reply["cmd"]?.string == "hint" && reply["id"]?.string == "h")
        #expect(reply["revision"]?.int == revision)
        #expect(reply["optimal"] == .bool(true))   // 3×3 is always solved optimally
        let solution = Self.directions(reply)
        #expect(!solution.isEmpty)
        for direction in solution {
            harness.send(#"{"cmd":"tilt","direction":"\#(direction.rawValue)"}"# + "\n", from: id)
        }
        #expect(harness.hub.game.puzzle.isSolved)
    }

    @Test func aSolvedBoardIsAnsweredAtOnceWithNoMoves() {
        let harness = HubHarness.small()
        let jobs = harness.collectHints()
        let (id, client) = harness.attach()
        client.clear()
        harness.send(#"{"cmd":"hint","id":1}"# + "\n", from: id)
        #expect(jobs.waiting.isEmpty)
        #expect(client.types() == ["reply"])
        #expect(client.messages[0]["solution"] == .array([]))
        #expect(client.messages[0]["optimal"] == .bool(true))
        #expect(client.messages[0]["revision"]?.int == harness.hub.game.revision)
    }

    /// A hint that takes long delays no sensor sample: the moves they cause go out
    /// (to the asker too) before the hint's reply.
    @Test func samplesDuringAHintAreNotDelayed() {
        let harness = HubHarness.small()
        let jobs = harness.collectHints()
        let (id, client) = harness.attach()
        let (_, watcher) = harness.attach()
        harness.send(#"{"cmd":"tilt","direction":"right"}"# + "\n", from: id)
        harness.send(#"{"cmd":"hint","id":5}"# + "\n", from: id)
        let asked = harness.hub.game.revision
        client.clear()
        watcher.clear()
        // Flat, then the left edge up (x negative): "right", legal with the empty cell at 14.
        let g = standardGravity
        var samples: [Sample] = (0..<10).map { Sample(time: Double($0) / 100, x: 0, y: 0, z: g) }
        samples += (1...20).map { i in
            Sample(time: 0.1 + Double(i) / 100, x: -g * Double(i) * 1.5 * Double.pi / 180, y: 0, z: g)
        }
        harness.hub.sensorSamples(samples)
        #expect(client.types() == ["tilt", "move"])
        #expect(watcher.types() == ["tilt", "move"])
        #expect(harness.hub.game.revision == asked + 1)
        harness.answer(jobs)
        #expect(client.types() == ["tilt", "move", "reply"])
        // The answer is for the board the client asked about, not the one after the tilt.
        let reply = client.messages[2]
        #expect(reply["revision"]?.int == asked)
        var board = Board(side: 3)
        _ = board.tilt(.right)
        for direction in Self.directions(reply) { _ = board.tilt(direction) }
        #expect(board.isSolved)
        #expect(Self.directions(reply) == [.left])
    }

    /// The asker's later replies wait behind its hint; another client's do not.
    @Test func laterRepliesWaitBehindTheHintForItsClientOnly() {
        let harness = HubHarness.small()
        let jobs = harness.collectHints()
        let (id, client) = harness.attach()
        let (otherID, other) = harness.attach()
        harness.send(#"{"cmd":"tilt","direction":"right"}"# + "\n", from: id)
        client.clear()
        other.clear()
        harness.send(#"{"cmd":"hint","id":1}"# + "\n" + #"{"cmd":"state","id":2}"# + "\n"
                     + #"{"cmd":"tilt","direction":"down","id":3}"# + "\n", from: id)
        // The tilt ran (its move is broadcast at once), but no reply may pass the hint.
        #expect(client.types() == ["move"])
        harness.send(#"{"cmd":"state","id":9}"# + "\n", from: otherID)
        #expect(other.types() == ["move", "state", "reply"])
        harness.answer(jobs)
        #expect(client.types() == ["move", "reply", "state", "reply", "reply"])
        #expect(client.messages.filter { $0["type"]?.string == "reply" }.map { $0["id"]!.int! } == [1, 2, 3])
        #expect(client.messages[1]["cmd"]?.string == "hint")
    }

    @Test func aClientThatLeavesBeforeItsHintIsForgotten() {
        let harness = HubHarness.small()
        let jobs = harness.collectHints()
        let (id, _) = harness.attach()
        let (_, other) = harness.attach()
        harness.send(#"{"cmd":"tilt","direction":"right"}"# + "\n" + #"{"cmd":"hint"}"# + "\n", from: id)
        harness.hub.detach(id, reason: "test")
        other.clear()
        harness.answer(jobs)
        #expect(other.types().isEmpty)
        #expect(harness.hub.clientCount == 1)
    }

    @Test func aClientThatClosesItsSideGetsItsHintFirst() {
        let harness = HubHarness.small()
        let jobs = harness.collectHints()
        let (id, client) = harness.attach()
        harness.send(#"{"cmd":"tilt","direction":"right"}"# + "\n" + #"{"cmd":"hint"}"# + "\n", from: id)
        harness.hub.endOfInput(from: id)
        #expect(harness.hub.isAttached(id))
        harness.answer(jobs)
        #expect(client.types().last == "reply")
        #expect(!harness.hub.isAttached(id))
    }
}

@Suite struct HintMemoryTests {
    @Test func followingAHintGetsTheRestOfIt() {
        var board = Puzzle.newGame(side: 3, seed: 3).board
        let solution = Solver.solve(board, clock: MonotonicClock.now)
        var memory = HintMemory()
        memory.remember(solution, for: board)
        #expect(memory.answer(for: board) == solution)
        _ = board.tilt(solution.directions[0])
        _ = board.tilt(solution.directions[1])
        #expect(memory.answer(for: board)?.directions == Array(solution.directions.dropFirst(2)))
        #expect(memory.answer(for: board)?.isOptimal == solution.isOptimal)
        // One step off the start other than the first: on no shortest path's remaining
        // boards (each is nearer the goal than the start, but not this one's first step).
        var off = Puzzle.newGame(side: 3, seed: 3).board
        let other = Direction.allCases.first { $0 != solution.directions[0] && off.tileIndex(tilting: $0) != nil }!
        _ = off.tilt(other)
        #expect(memory.answer(for: off) == nil)
        #expect(memory.answer(for: Board(side: 4)) == nil)
    }
}

@Suite(.serialized) struct HintWorkerTests {
    static func directory() throws -> String {
        let path = NSTemporaryDirectory() + "hint-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func waitForAnswers(_ worker: HintWorker, count: Int) -> [HintAnswer] {
        var answers: [HintAnswer] = []
        while answers.count < count {
            _ = try? Poll.wait([(worker.answersReady.descriptor, .readable)], timeout: 60)
            answers += worker.takeAnswers()
        }
        return answers
    }

    @Test func theWorkerAnswersOnItsThreadThroughTheEventfd() throws {
        let worker = try HintWorker(cache: nil, log: Logger(level: .error) { _ in })
        defer { worker.stop() }
        let board = Puzzle.newGame(side: 3, seed: 21).board
        worker.submit(HintJob(ticket: 4, board: board, revision: 9))
        worker.submit(HintJob(ticket: 5, board: Puzzle.newGame(side: 2, seed: 1).board, revision: 10))
        let answers = Self.waitForAnswers(worker, count: 2)
        #expect(answers.map(\.ticket) == [4, 5])
        #expect(answers[0].revision == 9)
        #expect(answers[0].solution == Solver.solve(board, clock: MonotonicClock.now))
    }

    @Test func theTablesAreBuiltOnlyForBoardsThatNeedThem() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = PatternDatabaseCache(directory: directory)
        let worker = try HintWorker(cache: cache, log: Logger(level: .error) { _ in })
        defer { worker.stop() }
        worker.submit(HintJob(ticket: 1, board: Puzzle.newGame(side: 3, seed: 2).board, revision: 1))
        _ = Self.waitForAnswers(worker, count: 1)
        #expect(!FileManager.default.fileExists(atPath: cache.path))
    }

    @Test func aDamagedCacheIsRebuiltAndReplaced() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = PatternDatabaseCache(directory: directory)
        let first = cache.loadOrBuild()
        #expect(first.origin == .built(reason: "no cache yet", saveError: nil))
        let good = try Data(contentsOf: URL(fileURLWithPath: cache.path))
        #expect(good.count == PatternDatabase.serializedCount)
        #expect(cache.loadOrBuild().origin == .loaded)

        // One byte flipped in the middle: the checksum catches it.
        var damaged = good
        damaged[damaged.count / 2] ^= 0x01
        try damaged.write(to: URL(fileURLWithPath: cache.path))
        guard case .built(let reason, nil) = cache.loadOrBuild().origin else {
            Issue.record("a damaged cache was trusted")
            return
        }
        #expect(reason.contains("checksum"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: cache.path)) == good)

        // Cut short: rebuilt and replaced as well.
        try good.prefix(1000).write(to: URL(fileURLWithPath: cache.path))
        guard case .built(let short, nil) = cache.loadOrBuild().origin else {
            Issue.record("a truncated cache was trusted")
            return
        }
        #expect(short.contains("1000 bytes"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: cache.path)) == good)
        #expect(!FileManager.default.fileExists(atPath: cache.path + ".tmp"))
    }
}
