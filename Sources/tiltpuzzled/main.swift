import TiltCommandLine
import TiltDaemon
#if canImport(Glibc)
import Glibc
#endif

let spec = CommandSpec(
    "tiltpuzzled", summary: "tiltpuzzled: the tilt puzzle daemon.",
    options: [OptionSpec("--version", help: "Print the version and the libraries' versions.")])

do throws(UsageError) {
    let arguments = try ParsedArguments(Array(CommandLine.arguments.dropFirst()), for: spec, program: "tiltpuzzled")
    if arguments.wantsHelp {
        print(spec.helpText(program: "tiltpuzzled"), terminator: "")
    } else if arguments.flag("--version") {
        print("tiltpuzzled \(DaemonInfo.version)")
        print(DaemonInfo.libraries)
    } else {
        print("tiltpuzzled: the event loop is not built yet; see --help")
        exit(69)
    }
} catch {
    print("tiltpuzzled: \(error.message)")
    exit(UsageError.exitStatus)
}
