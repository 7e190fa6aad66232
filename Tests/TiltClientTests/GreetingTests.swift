import Testing
import TiltClient
import TiltSystem

/// A daemon that takes the connection but does not greet (still starting, or stuck)
/// is reported as such, not as something garbled.
@Suite struct GreetingTests {
    @Test func noGreetingInTimeIsItsOwnFailure() throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-greeting")
        defer { folder.remove() }
        let path = folder.path + "/silent.sock"
        let listener = try UnixSocket.listen(path: path)
        defer { try? listener.close() }
        #expect(throws: DaemonConnection.Failure.noGreeting(path: path, seconds: 0.2)) {
            try DaemonConnection(candidates: [path], greetingTimeout: 0.2)
        }
        let failure = DaemonConnection.Failure.noGreeting(path: path, seconds: 30)
        #expect(failure.description.contains("did not greet within 30 s"))
        #expect(failure.exitStatus == 69)
    }
}
