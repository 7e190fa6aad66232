// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltCommandLine
#if canImport(Glibc)
import Glibc
import TiltSystem
#endif

// The player's language first: the declarations below are in it (docs/client.md, "Languages").
Localization.start()

/// The client's commands, declared once; help and parsing come from here.
let clientCommands: [any ClientCommand.Type] = [
    StatusCommand.self, WatchCommand.self, PlayCommand.self,
    TiltCommand.self, MoveCommand.self, SlideCommand.self, UndoCommand.self, RedoCommand.self, HintCommand.self,
    NewCommand.self, CalibrateCommand.self, ConfigureCommand.self, ScreenCommand.self, DemoCommand.self, SensorsCommand.self, RecordCommand.self,
    GUICommand.self,
]

let commandLine = CommandGroup(
    program: "tiltpuzzle",
    summary: L("tiltpuzzle: play the tilt puzzle of a tiltpuzzled daemon."),
    globalOptions: [GlobalOption.socket, GlobalOption.version],
    commands: clientCommands.map { $0.spec })

@MainActor
func runMain() -> Int32 {
    do throws(UsageError) {
        switch try commandLine.parse(Array(CommandLine.arguments.dropFirst())) {
        case .help:
            print(commandLine.helpText, terminator: "")
            return ExitStatus.ok
        case .version:
            print("tiltpuzzle \(ProductVersion.current)")
            print(ProductVersion.license)
            return ExitStatus.ok
        case .command(let spec, _, let arguments):
            if arguments.value(GlobalOption.socket)?.isEmpty == true {
                throw UsageError(L("--socket needs a path, not ''"))
            }
            if arguments.wantsHelp {
                print(spec.helpText(program: commandLine.program), terminator: "")
                return ExitStatus.ok
            }
            guard let command = clientCommands.first(where: { $0.spec.name == spec.name }) else { return ExitStatus.software }
            return command.run(arguments)
        }
    } catch {
        return StandardError.report(error, program: commandLine.program)
    }
}

exit(runMain())
