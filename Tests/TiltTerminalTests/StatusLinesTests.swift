// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltClient
import TiltCore
import TiltTerminal
import TiltWire

/// The lines `watch` and `play` write under the board, from the client's game.
struct StatusLinesTests {
    /// The 4×4 board solved, as the daemon's greeting sends it.
    static let solved = GameState(revision: 7, size: 4, board: Array(0..<16), empty: 15, moves: 0, solved: true,
                                  canUndo: false, canRedo: false, time: 0)
    static let unsolved = GameState(revision: 3, size: 2, board: [0, 1, 3, 2], empty: 2, moves: 5, solved: false,
                                    canUndo: true, canRedo: false, time: 61.5)

    @Test func theFirstLineIsTheCountersAndTheTickingClock() {
        var game = ClientGame()
        game.apply(.state(Self.unsolved), at: 200)
        #expect(game.statusLines(at: 203.25).first == "5 moves   1:04")
        game.apply(.move(revision: 4, move: Move(from: 3, to: 2, direction: .left), cause: .command,
                         moves: 6, solved: true), at: 210)
        game.apply(.solved(revision: 4, moves: 6, time: 71), at: 210)
        #expect(game.statusLines(at: 500).first == "6 moves   1:11   SOLVED")
    }

    @Test func statusLinesShowTheSensorAndTheNotice() {
        var game = ClientGame()
        #expect(game.statusLines(at: 0).isEmpty)
        game.apply(.state(Self.solved), at: 0)
        game.apply(.sensor(SensorReport(status: .active, kind: "iio", name: "accel_3d", device: "iio:device0")), at: 0)
        game.apply(.error(id: .number("4"), code: .noSensor, message: "calibration needs a sensor sample"), at: 0)
        #expect(game.statusLines(at: 0) == ["0 moves   0:00   SOLVED", "", "sensor active: iio accel_3d (iio:device0)",
                                            "calibration needs a sensor sample"])
    }
}
