import TiltCommandLine
#if canImport(Glibc)
import Glibc
#endif

/// The client's commands, declared once; help and parsing come from here.
let commandLine = CommandGroup(
    program: "tiltpuzzle",
    summary: "tiltpuzzle: play the tilt puzzle of a tiltpuzzled daemon.",
    globalOptions: [
        OptionSpec("--socket", value: "PATH", help: "The daemon's socket (default: $TILTPUZZLE_SOCKET, else the system socket)."),
        OptionSpec("--version", help: "Print the version."),
    ],
    commands: [DemoCommand.spec])

let clientVersion = "0.1.0"

func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

func runMain() -> Int32 {
    do throws(UsageError) {
        switch try commandLine.parse(Array(CommandLine.arguments.dropFirst())) {
        case .help:
            print(commandLine.helpText, terminator: "")
            return 0
        case .version:
            print("tiltpuzzle \(clientVersion)")
            return 0
        case .command(let spec, _, let arguments):
            if arguments.wantsHelp {
                print(spec.helpText(program: commandLine.program), terminator: "")
                return 0
            }
            switch spec.name {
            case DemoCommand.spec.name: return DemoCommand.run(arguments)
            default: return 70
            }
        }
    } catch {
        printError("\(commandLine.program): \(error.message)")
        if let hint = error.hint { printError("(\(hint))") }
        return UsageError.exitStatus
    }
}

exit(runMain())
