// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import TiltSystem
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
    private let directory: TestSupport.TemporaryDirectory

    /// Runs `script` with sh in a `width`×`height` pane.
    init(directory: TestSupport.TemporaryDirectory, width: Int = 100, height: Int = 40, script: String) throws {
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

    /// Runs tmux with its output in a file. The server tmux starts lives on with
    /// whatever it inherits, so it inherits nothing it could keep: no signal blocked
    /// (test threads block signals, and the server would ignore the SIGTERM that
    /// kill-server sends it), nothing to read, and no other open descriptor (other
    /// tests' pipes, which would then never reach their end).
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        guard let executable = Self.executable else { throw TestFailure("tmux is not installed") }
        let outputFile = socket + ".out"
        unlink(outputFile)
        let child = try ChildProcess([executable, "-S", socket, "-f", "/dev/null"] + arguments,
                                     environment: Client.environment(), standardInput: .null,
                                     standardOutput: .file(outputFile), standardError: .discard,
                                     otherDescriptors: .closed)
        let status = child.wait()
        let output = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
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
