// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

@Suite struct ChildProcessTests {
    @Test func outputAndExitStatusOfAProgramOnThePath() throws {
        let echo = try ChildProcess.output(of: ["sh", "-c", "printf 'one\\ntwo'; echo noise >&2; exit 3"])
        #expect(echo.status == 3)
        #expect(String(decoding: echo.output, as: UTF8.self) == "one\ntwo")
    }

    @Test func aSignalledChildReportsTheSignal() throws {
        let child = try ChildProcess(["sleep", "30"])
        #expect(child.isRunning)
        child.signal(15)
        #expect(child.wait() == 128 + 15)
        #expect(!child.isRunning)
        #expect(child.endingSignal == 15)
        let exited = try ChildProcess(["sh", "-c", "exit 143"])
        #expect(exited.wait() == 143)
        #expect(exited.endingSignal == nil, "an exit, not a signal")
    }

    @Test func aMissingProgramIsAnError() {
        #expect(throws: Errno.noSuchFile) { try ChildProcess(["/nonexistent/program"]) }
    }

    @Test func theEnvironmentIsAddedTo() throws {
        let (read, write) = try FileDescriptor.pipe()
        defer { try? read.close() }
        let child = try ChildProcess(["sh", "-c", "printf %s \"$TILTPUZZLE_TEST_VALUE\""],
                                     environment: ["TILTPUZZLE_TEST_VALUE": "added"], standardOutput: .descriptor(write))
        try write.close()
        #expect(child.wait() == 0)
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = try read.read(into: &bytes)
        #expect(String(decoding: bytes[..<count], as: UTF8.self) == "added")
    }

    @Test func bothOutputsThroughPipesReadTogether() throws {
        // More than a pipe holds on standard error: read one after the other, the child
        // would stop on the full pipe.
        let child = try ChildProcess(["sh", "-c", "head -c 200000 /dev/zero >&2; printf out"],
                                     standardOutput: .pipe, standardError: .pipe)
        let (output, errors) = child.readPipes()
        #expect(child.wait() == 0)
        #expect(String(decoding: output, as: UTF8.self) == "out")
        #expect(errors.count == 200_000)
    }

    @Test func standardInputFromNothingOrADescriptor() throws {
        let empty = try ChildProcess(["wc", "-c"], standardInput: .null, standardOutput: .pipe)
        #expect(String(decoding: empty.readPipes().output, as: UTF8.self) == "0\n")
        #expect(empty.wait() == 0)

        let (read, write) = try FileDescriptor.pipe()
        let child = try ChildProcess(["cat"], standardInput: .descriptor(read), standardOutput: .pipe)
        try read.close()
        try write.writeAll("handed in")
        try write.close()
        #expect(String(decoding: child.readPipes().output, as: UTF8.self) == "handed in")
        #expect(child.wait() == 0)
    }

    @Test func runsInTheFolderGiven() throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        defer { folder.remove() }
        let child = try ChildProcess(["sh", "-c", "pwd -P; echo here > file"], directory: folder.path,
                                     standardOutput: .pipe)
        let output = String(decoding: child.readPipes().output, as: UTF8.self)
        #expect(child.wait() == 0)
        #expect(output.hasSuffix(String(folder.path.split(separator: "/").last!) + "\n"), "\(output)")
        #expect(try FileDescriptor.readText(folder.path + "/file") == "here\n")
    }

    @Test func otherDescriptorsAreClosedWhenAsked() throws {
        // A descriptor of ours that is not closed on exec, as a library may leave one.
        let kept = FileDescriptor(rawValue: dup(FileDescriptor.standardError.rawValue))
        defer { try? kept.close() }
        let script = "[ -e /proc/self/fd/\(kept.rawValue) ] && printf inherited || printf closed"
        let inherited = try ChildProcess(["sh", "-c", script], standardOutput: .pipe)
        #expect(String(decoding: inherited.readPipes().output, as: UTF8.self) == "inherited")
        inherited.wait()
        let closed = try ChildProcess(["sh", "-c", script], standardOutput: .pipe, otherDescriptors: .closed)
        #expect(String(decoding: closed.readPipes().output, as: UTF8.self) == "closed")
        closed.wait()
    }

    /// How long a wait that times out takes is measured by the benchmark (`system`).
    @Test func aWaitWithATimeoutEndsAtTheExitOrTheTimeout() throws {
        let sleeper = try ChildProcess(["sleep", "30"])
        #expect(try sleeper.wait(timeout: 0.2) == nil)
        #expect(sleeper.isRunning)
        sleeper.signal(SIGKILL)
        #expect(try sleeper.wait(timeout: 10) == 128 + SIGKILL)

        let quick = try ChildProcess(["sh", "-c", "exit 4"])
        #expect(try quick.wait(timeout: 10) == 4)
        #expect(try quick.wait(timeout: 0) == 4, "an exited child answers at once")
    }
}

@Suite struct TemporaryDirectoryTests {
    @Test func removedWithWhatItHolds() throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        let inner = folder.path + "/state"
        _ = try Syscall.call("mkdir") { mkdir(inner, 0o700) }
        try FileDescriptor.open(inner + "/game.json", [.writeOnly, .create], permissions: 0o600).close()
        folder.remove()
        #expect(throws: Errno.noSuchFile) { try FileDescriptor.open(folder.path, [.directory]) }
    }
}
