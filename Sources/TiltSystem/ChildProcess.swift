#if canImport(Glibc)
import Glibc
#endif

/// A program we start (posix_spawn): the one way this project runs another program.
public final class ChildProcess {
    public let pid: pid_t
    private var exitStatus: Int32?

    /// What the child's standard output and error are.
    public enum Output {
        case inherit
        case discard
        /// Appended to this file (created 0600 if missing).
        case file(String)
        /// Written to this descriptor, which the child gets as a copy.
        case descriptor(FileDescriptor)
    }

    /// Starts `arguments[0]` (searched on PATH when it has no slash) with `arguments`
    /// and this process's environment with `environment` set in it (a nil value removes
    /// that variable).
    public init(_ arguments: [String], environment: [String: String?] = [:],
                standardOutput: Output = .inherit, standardError: Output = .inherit) throws(Errno) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (fd, output) in [(Int32(1), standardOutput), (Int32(2), standardError)] {
            switch output {
            case .inherit: break
            case .discard: posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
            case .file(let path): posix_spawn_file_actions_addopen(&actions, fd, path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            case .descriptor(let target): posix_spawn_file_actions_adddup2(&actions, target.rawValue, fd)
            }
        }
        // A child starts with no signal blocked and every signal at its default: a
        // caller that blocks signals for a signalfd must not hand that on.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var merged = ProcessEnvironment.current
        for (key, value) in environment { merged[key] = value }
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        _ = try Syscall.call("posix_spawn") { () -> Int32 in
            let result = arguments[0].contains("/")
                ? posix_spawn(&child, arguments[0], &actions, &attributes, &argv, &envp)
                : posix_spawnp(&child, arguments[0], &actions, &attributes, &argv, &envp)
            // posix_spawn returns the error instead of setting errno.
            if result != 0 { errno = result; return -1 }
            return 0
        }
        pid = child
    }

    /// Whether it still runs (an exited child is reaped here, once).
    public var isRunning: Bool {
        guard exitStatus == nil else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exitStatus = status }
        return exitStatus == nil
    }

    /// Waits until it exits; its exit code (128 + N when killed by signal N).
    @discardableResult
    public func wait() -> Int32 {
        if exitStatus == nil {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            exitStatus = status
        }
        let status = exitStatus ?? 0
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    public func signal(_ number: Int32) {
        if isRunning { kill(pid, number) }
    }

    /// Runs `arguments` to the end and returns its exit code and standard output
    /// (at most `limit` bytes kept); its standard error is discarded.
    public static func output(of arguments: [String], limit: Int = 1 << 20) throws(Errno) -> (status: Int32, output: [UInt8]) {
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        defer { try? readEnd.close() }
        let child: ChildProcess
        do throws(Errno) {
            child = try ChildProcess(arguments, standardOutput: .descriptor(writeEnd), standardError: .discard)
            try writeEnd.close()
        } catch {
            try? writeEnd.close()
            throw error
        }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while let count = try? readEnd.read(into: &chunk), count > 0 {
            if output.count < limit { output += chunk[..<min(count, limit - output.count)] }
        }
        return (child.wait(), output)
    }
}
