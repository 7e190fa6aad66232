// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltClient
import TiltSystem
import TiltWire

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

    /// A daemon that greets but never answers the request: a timeout, its own kind
    /// and exit status (75), not "sent something unreadable" (76).
    @Test func aRequestWithoutAReplyInTimeIsItsOwnFailure() throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-reply")
        defer { folder.remove() }
        let path = folder.path + "/mute.sock"
        let listener = try UnixSocket.listen(path: path)
        defer { try? listener.close() }
        let greeter = try JoinableThread {
            _ = try? Poll.wait([(listener, .readable)], timeout: 10)
            guard let accepted = try? UnixSocket.accept(listener) else { return }
            try? accepted.writeAll(ServerMessage.hello(version: "test").encoded())
            // Held open and silent until the client hangs up.
            var buffer = [UInt8](repeating: 0, count: 256)
            while (try? Poll.wait([(accepted, .readable)], timeout: 10))?.first?.isEmpty == false,
                  let count = try? accepted.read(into: &buffer), count > 0 {}
            try? accepted.close()
        }
        do {
            let connection = try DaemonConnection(candidates: [path], greetingTimeout: 5)
            #expect(throws: DaemonConnection.Failure.noReply(command: "state", seconds: 0.2)) {
                try connection.request(.state, timeout: 0.2)
            }
        }
        greeter.join()
        let failure = DaemonConnection.Failure.noReply(command: "state", seconds: 10)
        #expect(failure.description == "the daemon did not answer 'state' within 10 s (is it overloaded? try again).")
        #expect(failure.exitStatus == 75)
    }
}
