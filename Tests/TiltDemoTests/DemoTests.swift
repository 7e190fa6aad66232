// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltSystem
@testable import TiltDemo

/// The demo in-process, as `tiltpuzzle demo --quiet` runs it: its own daemon on a
/// private socket, the simulated hand replayed through it, and a client that sees
/// the game solved.
@Suite struct DemoTests {
    static func play(size: Int, seed: UInt64) throws -> Demo.Outcome {
        var settings = Demo.Settings()
        settings.size = size
        settings.seed = seed
        settings.speed = 1000
        settings.quiet = true
        return try Demo.play(settings)
    }

    @Test func theDemoEndsSolvedAndLeavesNothingBehind() throws {
        let outcome = try Self.play(size: 3, seed: 1)
        #expect(outcome.state.solved)
        #expect(outcome.tilts == outcome.planned, "every tilt the hand played was detected once")
        #expect(outcome.state.moves == outcome.planned, "and moved a tile")
        #expect(outcome.log.isEmpty, "the daemon warned: \(outcome.log)")
        #expect(throws: Errno.noSuchFile) { try FileDescriptor.open(outcome.folder, [.directory]) }
    }

    /// Any game: sizes 2 to 5, several seeds each, all end solved with exactly the
    /// solver's moves.
    @Test(arguments: [2, 3, 4, 5])
    func anyGameEndsSolved(size: Int) throws {
        for seed: UInt64 in [2, 3, 5, 8, 13] {
            let outcome = try Self.play(size: size, seed: seed)
            #expect(outcome.state.solved, "size \(size), seed \(seed)")
            #expect(outcome.state.moves == outcome.planned, "size \(size), seed \(seed)")
        }
    }
}
