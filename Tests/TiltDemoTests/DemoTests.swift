import Testing
import TiltSystem
@testable import TiltDemo

/// The demo in-process, as `tiltpuzzle demo --quiet` runs it: its own daemon on a
/// private socket, the replayed tablet, and a client that sees the game solved.
@Suite struct DemoTests {
    @Test func theDemoEndsSolvedAndLeavesNothingBehind() throws {
        var settings = Demo.Settings()
        settings.speed = 50
        settings.quiet = true
        let outcome = try Demo.play(settings)
        #expect(outcome.state.solved)
        #expect(outcome.state.moves == outcome.tilts, "every tilt of the solution moved a tile")
        #expect(outcome.log.isEmpty, "the daemon warned: \(outcome.log)")
        #expect(throws: Errno.noSuchFile) { try FileDescriptor.open(outcome.folder, [.directory]) }
    }
}
