// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltClient
import TiltCore
import TiltTerminal
import TiltWire

/// `play`'s one-line tilt gauge (docs/client.md).
@Suite struct PoseGaugeTests {
    @Test func showsTheWayTheSizeTheMarksAndTheState() {
        let line = PoseGauge.line(PoseReport(x: 12.4, y: -3, armed: true, trigger: 20, release: 10))
        #expect(line.hasPrefix("tilt right 12°"))
        #expect(line.hasSuffix("armed"))
        let bar = line.split(separator: "[")[1].split(separator: "]")[0]
        #expect(bar.count == PoseGauge.barWidth)
        // 30° spans the bar: release at cell 8, trigger at 16, 12.4° fills 10 cells.
        #expect(Array(bar)[8] == ":" && Array(bar)[16] == "|")
        #expect(bar.prefix(8).allSatisfy { $0 == "#" } && Array(bar)[9] == "#" && Array(bar)[10] == ".")
    }

    @Test func waitingSaysHowToReArm() {
        let line = PoseGauge.line(PoseReport(x: 0, y: 25, armed: false, trigger: 20, release: 10))
        #expect(line.hasPrefix("tilt up 25°"))
        #expect(line.hasSuffix("return to level to re-arm"))
        #expect(PoseGauge.line(PoseReport(x: 0.2, y: -0.1, armed: true, trigger: 20, release: 10)).hasPrefix("tilt level 0°"))
    }

    @Test func liveGameShowsItOnlyWhileTheSensorRuns() {
        var game = ClientGame()
        _ = game.apply(.state(StatusLinesTests.solved), at: 0)
        _ = game.apply(.pose(PoseReport(x: 0, y: -15, armed: true, trigger: 20, release: 10)), at: 0)
        #expect(!game.statusLines(at: 0).contains { $0.hasPrefix("tilt ") })
        _ = game.apply(.sensor(SensorReport(status: .active, name: "accel_3d")), at: 0)
        #expect(game.statusLines(at: 0).contains { $0.hasPrefix("tilt down 15°") })
    }

    @Test func anAutomaticCalibrationIsAnEventLine() {
        var game = ClientGame()
        #expect(game.apply(.calibrated(auto: true), at: 0).line == "the pose you hold is now neutral (held still at the start)")
        game.apply(.state(StatusLinesTests.solved), at: 0)
        game.apply(.calibrated(auto: true), at: 0)
        #expect(game.statusLines(at: 0).last == "the pose you hold is now neutral (held still at the start)")
    }
}

/// Records in the terminal views (docs/client.md).
@Suite struct RecordTextTests {
    @Test func theSolvedLineSaysWhetherItIsARecord() {
        var game = ClientGame()
        _ = game.apply(.state(StatusLinesTests.unsolved), at: 0)
        let line = game.apply(.solved(revision: 4, moves: 6, time: 71, records: RecordNews(bestTime: true, fewestMoves: true)), at: 1).line
        #expect(line == "solved in 6 moves, 1:11 — new best: time and moves!")
    }

    @Test func theCountersShowTheBestAndStatusListsAll() {
        var state = StatusLinesTests.unsolved
        state.records = [SizeRecord(size: 2, bestTime: 9, fewestMoves: 3), SizeRecord(size: 4, bestTime: 125, fewestMoves: 90)]
        var game = ClientGame()
        _ = game.apply(.state(state), at: 0)
        #expect(game.statusLines(at: 0).first?.hasSuffix("(best 0:09, 3 moves)") == true)
        #expect(GameText.recordLines(state) == ["best 2×2: 0:09, 3 moves", "best 4×4: 2:05, 90 moves"])
        #expect(GameText.recordLines(StatusLinesTests.unsolved) == ["best: no game solved yet"])
    }
}
