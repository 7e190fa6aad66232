import TiltCore
import TiltDaemon
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// A `tiltpuzzled` of our own, on a temporary socket and state folder, for the demo.
final class PrivateDaemon {
    let directory: String
    let socketPath: String
    private(set) var pid: pid_t = 0

    /// The child's pid, for the signal handler that must not leave it running.
    nonisolated(unsafe) static var runningPID: pid_t = 0

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Prepares a folder with `trace` and a saved `puzzle`, then starts the daemon
    /// replaying the trace at `speed`.
    init(trace: String, puzzle: Puzzle, speed: Double) throws(Failure) {
        var template = Array("/tmp/tiltpuzzle-demo-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Failure(description: "cannot make a temporary folder: \(Errno.current)")
        }
        directory = String(cString: made)
        socketPath = directory + "/tiltpuzzled.sock"
        let tracePath = directory + "/demo.csv"
        let store = StateStore(directory: directory + "/state")
        do throws(Errno) {
            let fd = try FileDescriptor.open(tracePath, [.writeOnly, .create, .truncate])
            try fd.writeAll(trace)
            try fd.close()
            try store.prepare()
            try store.save(SavedGame(game: Game(puzzle: puzzle, detector: TiltDetector()), at: 0))
        } catch {
            throw Failure(description: "cannot prepare the demo in \(directory): \(error)")
        }
        let executable = try Self.daemonExecutable()
        let arguments = [executable, "--source", "replay:\(tracePath)", "--replay-speed", "\(speed)",
                         "--socket", socketPath, "--state-dir", store.directory, "--log-level", "warning",
                         "--config", "/dev/null"]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 2, directory + "/daemon.log", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let status = posix_spawn(&pid, executable, &actions, nil, &argv, environ)
        guard status == 0 else {
            throw Failure(description: "cannot start \(executable): \(Errno(rawValue: status))")
        }
        Self.runningPID = pid
    }

    /// tiltpuzzled next to this program (as built or installed), else on PATH.
    static func daemonExecutable() throws(Failure) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if length > 0 {
            let own = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let sibling = String(own[..<(own.lastIndex(of: "/") ?? own.startIndex)]) + "/tiltpuzzled"
            if access(sibling, X_OK) == 0 { return sibling }
        }
        for directory in (getenv("PATH").map { String(cString: $0) } ?? "").split(separator: ":") {
            let candidate = "\(directory)/tiltpuzzled"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        throw Failure(description: "tiltpuzzled not found next to tiltpuzzle or on PATH")
    }

    /// The daemon's log, to show when something went wrong.
    var log: String { (try? FileDescriptor.readText(directory + "/daemon.log")) ?? "" }

    /// Whether the daemon is still running.
    var isRunning: Bool {
        var status: Int32 = 0
        return pid > 0 && waitpid(pid, &status, WNOHANG) == 0
    }

    func stop() {
        guard pid > 0 else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        pid = 0
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
