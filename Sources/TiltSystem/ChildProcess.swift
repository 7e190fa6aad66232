// SPDX-License-Identifier: GPL-3.0-or-later
import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// A program we start (posix_spawn): the one way this project runs another program.
public final class ChildProcess {
    public let pid: pid_t
    private var exitStatus: Int32?
    /// The read ends of the pipes asked for with `Output.pipe`, this process's to read;
    /// closed with this object.
    public let outputPipe: FileDescriptor?
    public let errorPipe: FileDescriptor?

    /// What the child's standard input is.
    public enum Input {
        case inherit
        /// /dev/null: the child reads nothing, and never waits on a terminal.
        case null
        /// Read from this descriptor, which the child gets as a copy.
        case descriptor(FileDescriptor)
    }

    /// What the child's standard output and error are.
    public enum Output {
        case inherit
        case discard
        /// Appended to this file (created 0600 if missing).
        case file(String)
        /// Written to this descriptor, which the child gets as a copy.
        case descriptor(FileDescriptor)
        /// A pipe whose read end is `outputPipe` or `errorPipe`.
        case pipe
    }

    /// What the child gets of this process's other open descriptors (above 2).
    public enum OtherDescriptors {
        /// Those not closed on exec.
        case inherited
        /// None: a child that lives on (a server) then keeps no pipe of ours open,
        /// whose reader would never see its end.
        case closed
    }

    /// Starts `arguments[0]` (searched on PATH when it has no slash) with `arguments`
    /// and this process's environment with `environment` set in it (a nil value removes
    /// that variable), in `directory` when one is given.
    public init(_ arguments: [String], environment: [String: String?] = [:], directory: String? = nil,
                standardInput: Input = .inherit, standardOutput: Output = .inherit, standardError: Output = .inherit,
                otherDescriptors: OtherDescriptors = .inherited) throws(Errno) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch standardInput {
        case .inherit: break
        case .null: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .descriptor(let source): posix_spawn_file_actions_adddup2(&actions, source.rawValue, 0)
        }
        // The write ends of the pipes: the child's copies are made at the spawn, and
        // ours are closed after it, so the reader sees the end when the child exits.
        var writeEnds: [FileDescriptor] = []
        var readEnds: [Int32: FileDescriptor] = [:]
        defer { writeEnds.forEach { try? $0.close() } }
        for (fd, output) in [(Int32(1), standardOutput), (Int32(2), standardError)] {
            switch output {
            case .inherit: break
            case .discard: posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
            case .file(let path): posix_spawn_file_actions_addopen(&actions, fd, path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            case .descriptor(let target): posix_spawn_file_actions_adddup2(&actions, target.rawValue, fd)
            case .pipe:
                do throws(Errno) {
                    let (readEnd, writeEnd) = try FileDescriptor.pipe()
                    readEnds[fd] = readEnd
                    writeEnds.append(writeEnd)
                    posix_spawn_file_actions_adddup2(&actions, writeEnd.rawValue, fd)
                } catch {
                    readEnds.values.forEach { try? $0.close() }
                    throw error
                }
            }
        }
        if otherDescriptors == .closed { posix_spawn_file_actions_addclosefrom_np(&actions, 3) }
        // Last: the files above are opened relative to this process's folder.
        if let directory { posix_spawn_file_actions_addchdir_np(&actions, directory) }
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
        do throws(Errno) {
            _ = try Syscall.call("posix_spawn") { () -> Int32 in
                let result = arguments[0].contains("/")
                    ? posix_spawn(&child, arguments[0], &actions, &attributes, &argv, &envp)
                    : posix_spawnp(&child, arguments[0], &actions, &attributes, &argv, &envp)
                // posix_spawn returns the error instead of setting errno.
                if result != 0 { errno = result; return -1 }
                return 0
            }
        } catch {
            readEnds.values.forEach { try? $0.close() }
            throw error
        }
        pid = child
        outputPipe = readEnds[1]
        errorPipe = readEnds[2]
    }

    deinit {
        try? outputPipe?.close()
        try? errorPipe?.close()
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

    /// The signal that ended it; nil while it runs or when it exited (a program that
    /// handles SIGTERM and exits 143 is told apart from one SIGTERM killed).
    public var endingSignal: Int32? {
        guard !isRunning, let status = exitStatus, status & 0x7f != 0 else { return nil }
        return status & 0x7f
    }

    /// Waits at most `timeout` seconds for it to exit; its exit code, or nil while it
    /// still runs. The wait is on a pidfd, which becomes readable when the child exits.
    public func wait(timeout: Double) throws(Errno) -> Int32? {
        guard isRunning else { return wait() }
        let pidfd = FileDescriptor(rawValue: try Syscall.call("pidfd_open") { pidfd_open(pid, 0) })
        defer { try? pidfd.close() }
        let deadline = MonotonicClock.now() + timeout
        while try Poll.wait([(pidfd, .readable)], timeout: max(0, deadline - MonotonicClock.now()))[0].isEmpty {
            if MonotonicClock.now() >= deadline { return nil }
        }
        return wait()
    }

    public func signal(_ number: Int32) {
        if isRunning { kill(pid, number) }
    }

    /// Reads `outputPipe` and `errorPipe` (those there are) to their ends, both at
    /// once, so that neither fills while the other is read and stops the child; at most
    /// `limit` bytes of each are kept. A read that fails ends that pipe's text.
    public func readPipes(limit: Int = 1 << 20) -> (output: [UInt8], errors: [UInt8]) {
        var open = [outputPipe, errorPipe]
        var collected: [[UInt8]] = [[], []]
        var chunk = [UInt8](repeating: 0, count: 4096)
        while open.contains(where: { $0 != nil }) {
            let indices = open.indices.filter { open[$0] != nil }
            guard let ready = try? Poll.wait(indices.map { (open[$0]!, .readable) }, timeout: nil) else { break }
            for (index, events) in zip(indices, ready) where !events.isEmpty {
                guard let count = try? open[index]!.read(into: &chunk), count > 0 else {
                    open[index] = nil
                    continue
                }
                collected[index] += chunk[..<min(count, max(0, limit - collected[index].count))]
            }
        }
        return (collected[0], collected[1])
    }

    /// Runs `arguments` to the end and returns its exit code and standard output
    /// (at most `limit` bytes kept); its standard error is discarded.
    public static func output(of arguments: [String], limit: Int = 1 << 20) throws(Errno) -> (status: Int32, output: [UInt8]) {
        let child = try ChildProcess(arguments, standardOutput: .pipe, standardError: .discard)
        let output = child.readPipes(limit: limit).output
        return (child.wait(), output)
    }
}
