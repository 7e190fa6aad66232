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
