// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCommandLine
import TiltGUI
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// `tiltpuzzle gui`: the graphical board. The window is a program of its own,
/// `tiltpuzzle-gui`, which this command replaces itself with: SDL brings some fifty
/// shared libraries (X11, Wayland, audio, fonts) that `status` or `tilt` in a script,
/// or a headless tablet without them installed, should never have to load.
enum GUICommand: ClientCommand {
    static let spec = GUIOptions.spec
    static let program = "tiltpuzzle-gui"

    static func run(_ arguments: ParsedArguments) -> Int32 {
        let options: GUIOptions
        switch checked(spec, { () throws(UsageError) in try GUIOptions(arguments) }) {
        case .failure(let exit): return exit.status
        case .success(let parsed): options = parsed
        }
        guard let path = Executable.find(program) else {
            StandardError.print("tiltpuzzle: " + L("the graphical board needs {0}, which is not installed next to tiltpuzzle or on PATH", program))
            StandardError.print("(" + L("in a checkout, build it first: {0}", "swift build --product \(program)") + ")")
            return ExitStatus.unavailable
        }
        var argv = ([path] + options.arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        do throws(Errno) {
            _ = try Syscall.call("execv") { execv(path, &argv) }
        } catch {
            StandardError.print("tiltpuzzle: " + L("cannot run {0}: {1}", path, error))
        }
        return ExitStatus.unavailable
    }
}
