// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCommandLine
import TiltSystem
import TiltTerminal

/// `tiltpuzzle watch`: the game as it happens, full-screen or a line per event.
enum WatchCommand: ClientCommand {
    static let spec = CommandSpec(
        "watch", summary: L("Follow the game live: the board, each tilt and move, the clock and the sensor."),
        discussion: L("On a terminal the board is redrawn in place (q or Ctrl-C quits); when the output is a pipe or a file, each event is one line."))

    static func run(_ arguments: ParsedArguments) -> Int32 {
        let terminal = Terminal.isUsable(.standardOutput, term: processEnvironment()["TERM"]) ? Terminal() : nil
        switch connect(arguments) {
        case .failure(let exit): return exit.status
        case .success(let connection):
            return LiveSession(connection: connection, title: "tiltpuzzle watch", keys: nil).run(on: terminal)
        }
    }
}

/// `tiltpuzzle play`: the same view, with the keyboard as a second way to tilt.
enum PlayCommand: ClientCommand {
    static let spec = CommandSpec(
        "play", summary: L("Play in the terminal: the arrow keys slide tiles, the tablet's tilts show live."),
        discussion: L("Keys (the graphical board's too): an arrow key slides a tile that way, u undoes, r redoes, n starts a new game of the same size, c calibrates the sensor, h or ? shows a hint (the tile to slide is highlighted, the moves to go shown), s changes the sensitivity, q quits."))

    static func run(_ arguments: ParsedArguments) -> Int32 {
        guard Terminal.isUsable(.standardOutput, term: processEnvironment()["TERM"]),
              FileDescriptor.standardInput.isTerminal else {
            StandardError.print("tiltpuzzle: " + L("play needs a terminal for its keys and screen"))
            StandardError.print("(" + L("to follow the game from a script or a pipe, use 'tiltpuzzle watch'") + ")")
            return ExitStatus.usage
        }
        switch connect(arguments) {
        case .failure(let exit): return exit.status
        case .success(let connection):
            return LiveSession(connection: connection, title: "tiltpuzzle play", keys: PlayerKeys()).run(on: Terminal())
        }
    }
}
