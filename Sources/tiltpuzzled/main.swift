// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCommandLine
import TiltDaemon
import TiltSystem
import TiltWire
#if canImport(Glibc)
import Glibc
#endif

func runDaemon() -> Int32 {
    let options: DaemonOptions
    do throws(UsageError) {
        options = try DaemonOptions(arguments: Array(CommandLine.arguments.dropFirst()),
                                    environment: ProcessEnvironment.current)
    } catch {
        Logger().error("tiltpuzzled: \(error.message)" + (error.hint.map { " (\($0))" } ?? ""))
        return UsageError.exitStatus
    }
    if options.showHelp {
        print(DaemonOptions.spec.helpText(program: "tiltpuzzled"), terminator: "")
        return 0
    }
    if options.showVersion {
        print("tiltpuzzled \(DaemonInfo.version) (protocol \(WireProtocol.version))")
        print(DaemonInfo.libraries)
        print(ProductVersion.license)
        return 0
    }
    let log = Logger(level: options.logLevel)
    do throws(Daemon.StartError) {
        return try Daemon(options: options, log: log).run()
    } catch {
        log.error("tiltpuzzled: \(error.message)")
        // EX_CONFIG for configuration problems would need finer errors; 1 is honest.
        return error.exitStatus
    }
}

exit(runDaemon())
