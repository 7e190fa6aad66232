import TiltClient
import TiltSystem
import TiltWire
#if canImport(Glibc)
import Glibc
#endif

/// A `tiltpuzzled` of our own, on a temporary socket and state folder, for the demo.
///
/// The game is set up through the protocol like any client would: a first run with
/// no sensor takes the `new` command and saves it; the second run replays the trace
/// on that game (a replay starts as soon as a client attaches, too early for `new`).
final class PrivateDaemon {
    let directory: String
    let socketPath: String
    private var pid: pid_t = 0
    private var exited = false

    /// The child's pid, for the signal handler that must not leave it running.
    nonisolated(unsafe) static var runningPID: pid_t = 0

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Prepares a folder with `trace` and the game `new` describes, then starts the
    /// daemon replaying the trace at `speed`.
    init(trace: String, game new: Command, speed: Double) throws(Failure) {
        var template = Array("/tmp/tiltpuzzle-demo-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Failure(description: "cannot make a temporary folder: \(Errno.current)")
        }
        directory = String(cString: made)
        socketPath = directory + "/tiltpuzzled.sock"
        let tracePath = directory + "/demo.csv"
        do throws(Errno) {
            let fd = try FileDescriptor.open(tracePath, [.writeOnly, .create, .truncate])
            try fd.writeAll(trace)
            try fd.close()
        } catch {
            throw Failure(description: "cannot prepare the demo in \(directory): \(error)")
        }
        guard let executable = Executable.find("tiltpuzzled") else {
            throw Failure(description: "tiltpuzzled not found next to tiltpuzzle or on PATH")
        }
        try start(executable, source: "none", speed: 1)
        do throws(DaemonConnection.Failure) {
            guard let setup = connectWhenReady() else { throw .closed }
            _ = try setup.request(new)
        } catch {
            throw Failure(description: "cannot set up the demo game: \(error)\n\(log)")
        }
        stop()
        try start(executable, source: "replay:\(tracePath)", speed: speed)
    }

    private func start(_ executable: String, source: String, speed: Double) throws(Failure) {
        let arguments = [executable, "--source", source, "--replay-speed", "\(speed)",
                         "--socket", socketPath, "--state-dir", directory + "/state", "--log-level", "warning",
                         "--config", "/dev/null"]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 2, directory + "/daemon.log", O_WRONLY | O_CREAT | O_APPEND, 0o600)
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let status = posix_spawn(&pid, executable, &actions, nil, &argv, environ)
        guard status == 0 else {
            throw Failure(description: "cannot start \(executable): \(Errno(rawValue: status))")
        }
        exited = false
        Self.runningPID = pid
    }

    /// The daemon needs a moment to open its socket.
    func connectWhenReady() -> DaemonConnection? {
        DaemonConnection.waiting(for: socketPath) { isRunning }
    }

    /// The daemon's log, to show when something went wrong.
    var log: String { (try? FileDescriptor.readText(directory + "/daemon.log")) ?? "" }

    /// Whether the daemon is still running (an exited child is reaped once, here).
    var isRunning: Bool {
        guard pid > 0, !exited else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exited = true }
        return !exited
    }

    func stop() {
        guard pid > 0 else { return }
        if isRunning {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        pid = 0
        exited = true
        Self.runningPID = 0
    }

    deinit {
        stop()
        for file in ["demo.csv", "daemon.log", "state/game.json", "state/game.json.tmp", "tiltpuzzled.sock"] {
            unlink(directory + "/" + file)
        }
        rmdir(directory + "/state")
        rmdir(directory)
    }
}
