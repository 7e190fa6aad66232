import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A real pseudo-terminal: a tmux server of the test's own (its own socket, so no
/// other tmux is touched) running a shell script in one pane.
final class TmuxPane {
    static let executable = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    private let socket: String
    /// Held so that the server's socket is still there when the pane ends it.
    private let directory: TemporaryDirectory

    /// Runs `script` with sh in a `width`×`height` pane.
    init(directory: TemporaryDirectory, width: Int = 100, height: Int = 40, script: String) throws {
        self.directory = directory
        socket = directory.path + "/tmux.sock"
        let file = directory.path + "/pane.sh"
        try script.write(toFile: file, atomically: true, encoding: .utf8)
        try tmux(["new-session", "-d", "-x", "\(width)", "-y", "\(height)", "sh \(file)"])
    }

    deinit { _ = try? tmux(["kill-server"]) }

    /// The pane's screen, one string per line, trailing blanks removed.
    func screen() throws -> [String] {
        try tmux(["capture-pane", "-p"]).split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0.reversed().drop { $0 == " " }.reversed()) }
    }

    /// Presses keys by tmux's names (`Right`, `q`).
    func press(_ keys: String...) throws {
        try tmux(["send-keys"] + keys)
    }

    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-x", "\(width)", "-y", "\(height)"])
    }

    /// Waits until the screen matches `predicate` (a key press travels through the
    /// terminal, the client, the daemon and back); the last screen seen.
    @discardableResult
    func waitForScreen(timeout: Double = 20, _ predicate: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var lines = try screen()
        while !predicate(lines), Date() < deadline {
            usleep(50_000)
            lines = try screen()
        }
        return lines
    }

    /// Closes all but standard input, output and error, then runs its arguments.
    private static let closeInheritedDescriptors = #"""
        for fd in /proc/$$/fd/*; do fd=${fd##*/}; if [ "$fd" -gt 2 ]; then eval "exec $fd>&-"; fi; done; exec "$@"
        """#

    /// Runs tmux with its output in a file. Not with `Process`: the server tmux starts
    /// lives on with whatever it inherits, so each inheritance is undone here. Test
    /// threads block signals, which a child inherits: the server would ignore the
    /// SIGTERM that kill-server sends it. Open descriptors (other tests' pipes, which
    /// would then never reach their end) are closed by the shell before tmux starts.
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        guard let executable = Self.executable else { throw TestFailure("tmux is not installed") }
        let outputFile = socket + ".out"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = ["/bin/bash", "-c", Self.closeInheritedDescriptors, "tmux-launcher", executable,
                    "-S", socket, "-f", "/dev/null"] + arguments
        var cArguments = argv.map { strdup($0) } + [nil]
        var cEnvironment = Client.environment().map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (cArguments + cEnvironment).forEach { free($0) } }
        var pid = pid_t()
        guard posix_spawn(&pid, argv[0], &actions, &attributes, &cArguments, &cEnvironment) == 0 else {
            throw TestFailure("cannot start tmux")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let output = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
        // Exited (low 7 bits clear) with status 0.
        guard status == 0 else { throw TestFailure("tmux \(arguments.joined(separator: " ")) failed (\(status))") }
        return output
    }
}

extension [String] {
    func containing(_ text: String) -> Bool { contains { $0.contains(text) } }

    /// Every word on the screen: after `stty -a`, the terminal's flags (`icanon`, `-echonl`, …).
    var words: Set<String> {
        Set(joined(separator: " ").split(separator: " ").map(String.init))
    }
}
