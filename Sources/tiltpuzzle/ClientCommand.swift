// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltCommandLine
import TiltSystem
import TiltWire
#if canImport(Glibc)
import Glibc
#endif

/// One `tiltpuzzle` subcommand: its declaration and what it does.
protocol ClientCommand {
    static var spec: CommandSpec { get }
    /// Runs with the command's arguments (global options included); the exit status.
    static func run(_ arguments: ParsedArguments) -> Int32
}

/// The options every command takes, before the command's name.
enum GlobalOption {
    static let socket = OptionSpec("--socket", value: "PATH", help: L("The daemon's socket (default: $TILTPUZZLE_SOCKET, else $XDG_RUNTIME_DIR/tiltpuzzle/tiltpuzzled.sock, else {0}).", DaemonConnection.systemSocket))
    static let version = OptionSpec("--version", help: L("Print the version."))
}

/// Connects as the global options say; on failure prints why and returns the exit status.
func connect(_ arguments: ParsedArguments) -> Result<DaemonConnection, ExitCode> {
    let candidates = DaemonConnection.candidatePaths(explicit: arguments.value(GlobalOption.socket),
                                                     environment: processEnvironment())
    do throws(DaemonConnection.Failure) {
        return .success(try DaemonConnection(candidates: candidates))
    } catch {
        return .failure(report(error))
    }
}

struct ExitCode: Error { var status: Int32 }

/// Prints a connection failure for a person and maps it to an exit status.
func report(_ failure: DaemonConnection.Failure) -> ExitCode {
    StandardError.print("tiltpuzzle: \(failure)")
    return ExitCode(status: failure.exitStatus)
}

func processEnvironment() -> [String: String] { ProcessEnvironment.current }
