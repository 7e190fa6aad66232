// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltCommandLine
import TiltCore
import TiltSystem
import TiltTerminal
import TiltWire

/// Parses arguments that the declaration cannot check by itself; a mistake points to
/// the command's help.
func checked<T>(_ spec: CommandSpec, _ body: () throws(UsageError) -> T) -> Result<T, ExitCode> {
    do throws(UsageError) {
        return .success(try body())
    } catch {
        return .failure(ExitCode(status: StandardError.report(error, program: "tiltpuzzle",
                                                              help: spec.invocation(program: "tiltpuzzle"))))
    }
}

let directionArgument = ArgumentSpec("DIRECTION", help: L("up, down, left or right: the way the tile slides."))

enum TiltCommand: ClientCommand {
    static let spec = CommandSpec("tilt", summary: L("Tilt the board once, as the sensor would."),
                                  arguments: [directionArgument])
    static func run(_ arguments: ParsedArguments) -> Int32 {
        switch checked(spec, { () throws(UsageError) in try OneShot.direction(arguments.argument(0)) }) {
        case .failure(let exit): return exit.status
        case .success(let direction): return OneShot.performMoving(arguments) { _ in .tilt(direction) }
        }
    }
}

enum MoveCommand: ClientCommand {
    static let spec = CommandSpec("move", summary: L("Move TILE one cell in DIRECTION, into the empty cell."),
                                  arguments: [TileArgument.spec, directionArgument], options: [TileArgument.cellFlag])
    static func run(_ arguments: ParsedArguments) -> Int32 {
        switch checked(spec, { () throws(UsageError) in
            (try TileArgument(arguments), try OneShot.direction(arguments.argument(1)))
        }) {
        case .failure(let exit): return exit.status
        case .success(let (tile, direction)):
            return OneShot.performMoving(arguments) { state throws(UsageError) in
                .move(index: try tile.cell(on: state), direction: direction)
            }
        }
    }
}

enum SlideCommand: ClientCommand {
    static let spec = CommandSpec(
        "slide", summary: L("Slide TILE and those between it and the empty cell, as one action."),
        arguments: [TileArgument.spec,
                    ArgumentSpec("DIRECTION", help: L("The way it slides, if you like to say it (as `hint` does): a tile that slides another way does not move."), optional: true)],
        options: [TileArgument.cellFlag],
        discussion: L("TILE must be in the empty cell's row or column. `tiltpuzzle hint` prints a step that can be typed as it is: `tiltpuzzle slide 7 down`."))
    static func run(_ arguments: ParsedArguments) -> Int32 {
        switch checked(spec, { () throws(UsageError) in
            (try TileArgument(arguments), try arguments.argument(1).map { text throws(UsageError) in try OneShot.direction(text) })
        }) {
        case .failure(let exit): return exit.status
        case .success(let (tile, direction)):
            return OneShot.performMoving(arguments) { state throws(UsageError) -> Command? in
                let cell = try tile.cell(on: state)
                // Said the other way, it does not move (as `move` into a wall does not).
                if let direction, let board = Board(side: state.size, cells: state.board),
                   board.slidePath(from: cell)?.direction != direction {
                    return nil
                }
                return .slide(index: cell)
            }
        }
    }
}

enum UndoCommand: ClientCommand {
    static let spec = CommandSpec("undo", summary: L("Undo the last action."))
    static func run(_ arguments: ParsedArguments) -> Int32 {
        OneShot.performMoving(arguments, nothing: L("nothing to undo")) { _ in .undo }
    }
}

enum RedoCommand: ClientCommand {
    static let spec = CommandSpec("redo", summary: L("Redo the last undone action."))
    static func run(_ arguments: ParsedArguments) -> Int32 {
        OneShot.performMoving(arguments, nothing: L("nothing to redo")) { _ in .redo }
    }
}

enum NewCommand: ClientCommand {
    static let size = OptionSpec("--size", value: "N", help: L("Board side, 2 to 10 (default: the current one)."))
    static let seed = OptionSpec("--seed", value: "S", help: L("Shuffle seed, to replay a game (default: random)."))
    static let noShuffle = OptionSpec("--no-shuffle", help: L("Start from the solved board."))
    static let board = OptionSpec("--board", value: "TILES",
                                  help: L("Start from this position: the tiles' numbers row by row, 0 or _ for the empty cell, commas and/or spaces between them (1,2,3,4,5,6,7,8,0 is the solved 3×3), as `status` prints the board."))
    static let spec = CommandSpec("new", summary: L("Start a new game."), options: [size, seed, noShuffle, board])
    static func run(_ arguments: ParsedArguments) -> Int32 {
        switch checked(spec, { () throws(UsageError) in
            let size = try arguments.value(size, as: L("a side from 2 to 10")) { Int($0).flatMap { Board.sides.contains($0) ? $0 : nil } }
            let seed = try arguments.value(seed, as: L("a whole number from 0 to 2^64-1")) { UInt64($0) }
            if let text = arguments.value(board) {
                guard seed == nil, !arguments.flag(noShuffle) else {
                    throw UsageError(L("--board is played as given: it takes no --seed or --no-shuffle"))
                }
                let board: Board
                do throws(BoardNotation.Problem) {
                    board = try BoardNotation.board(text)
                } catch {
                    throw UsageError("--board: \(L.translated(error.text))")
                }
                if let size, size != board.side {
                    throw UsageError(L("--size is {0} but the board is {1}", size, GameText.sizeText(board.side)))
                }
                return Command.new(size: nil, seed: nil, shuffle: false, board: board)
            }
            return Command.new(size: size, seed: seed, shuffle: !arguments.flag(noShuffle))
        }) {
        case .failure(let exit): return exit.status
        case .success(let command):
            return OneShot.perform(command, arguments) { messages in
                guard let state = messages.compactMap({ if case .state(let s) = $0 { s } else { nil } }).last else { return nil }
                return (BoardText.lines(state) + [L("new {0} game", GameText.sizeText(state.size))]).joined(separator: "\n")
            }
        }
    }
}

enum CalibrateCommand: ClientCommand {
    static let spec = CommandSpec("calibrate", summary: L("Take the tablet's current pose as neutral (hold it as you play)."))
    static func run(_ arguments: ParsedArguments) -> Int32 {
        OneShot.perform(.calibrate, arguments) { _ in L("calibrated: this pose is now neutral") }
    }
}

enum HintCommand: ClientCommand {
    static let spec = CommandSpec("hint", summary: L("Show the next tile to slide and how many moves are left."))
    static func run(_ arguments: ParsedArguments) -> Int32 {
        // The daemon's first 4×4 hint builds its tables (docs/solver.md): seconds on a
        // slow tablet, a minute or more in a debug build on a busy machine.
        OneShot.perform(.hint, arguments, timeout: 120) { messages in
            // The board the hint is for: the mirror at the hint's revision (the sensor
            // may have moved tiles while the daemon thought).
            var mirror = BoardMirror()
            var board: GameState?
            for message in messages {
                if case .hint(_, let hint) = message {
                    guard let board, board.revision == hint.revision else { return HintText.describe(hint, board: [], size: 0) }
                    return HintText.describe(hint, board: board.board, size: board.size)
                }
                _ = mirror.apply(message)
                board = mirror.state
            }
            return nil
        }
    }
}

enum ConfigureCommand: ClientCommand {
    static let trigger = OptionSpec("--trigger", value: "DEGREES", help: L("Tilt that moves a tile, 5 to 60 (default 20)."))
    static let release = OptionSpec("--release", value: "DEGREES",
                                    help: L("Return under this to tilt again, at least 2 below the trigger (default 10)."))
    static let spec = CommandSpec("configure", summary: L("Set how far to tilt to move a tile, and how far back to re-arm."),
                                  options: [trigger, release])
    /// A finite number: `nan` and `inf` are no angles (the range is the daemon's to check).
    static func degrees(_ text: String) -> Double? { Double(text).flatMap { $0.isFinite ? $0 : nil } }

    static func run(_ arguments: ParsedArguments) -> Int32 {
        switch checked(spec, { () throws(UsageError) in
            let trigger = try arguments.value(trigger, as: L("a number of degrees")) { degrees($0) }
            let release = try arguments.value(release, as: L("a number of degrees")) { degrees($0) }
            guard trigger != nil || release != nil else {
                throw UsageError(L("configure needs --trigger or --release (or both)"))
            }
            return Command.configure(trigger: trigger, release: release)
        }) {
        case .failure(let exit): return exit.status
        case .success(let command):
            return OneShot.perform(command, arguments) { messages in
                guard let settings = messages.compactMap({ if case .settings(let s) = $0 { s } else { nil } }).last else {
                    return nil
                }
                return GameText.sensitivityText(settings)
            }
        }
    }
}
