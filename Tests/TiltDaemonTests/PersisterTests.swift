// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
@testable import TiltDaemon
import TiltSystem

/// The saver off the event path: what it is asked to save reaches the disk by `finish`,
/// the newest game last, and each write's outcome comes back as a completion that
/// `completionsReady` announces. No waiting on time: `finish` writes what is pending.
@Suite struct PersisterTests {
    /// A game after `count` new games, so its generation is `count`.
    static func game(after count: Int) -> Game {
        var game = Game(puzzle: Puzzle(side: 3), detector: TiltDetector())
        for seed in 0..<count { _ = game.newGame(size: 3, seed: UInt64(seed), at: 0) }
        return game
    }

    static func isReady(_ persister: Persister) throws -> Bool {
        let events = try Poll.wait([(persister.completionsReady.descriptor, .readable)], timeout: 0)
        return events[0].contains(.readable)
    }

    @Test func aSavedGameIsOnDiskWithItsCompletionAnnounced() throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-persister")
        defer { folder.remove() }
        let store = StateStore(directory: folder.path)
        let persister = try Persister(store: store)
        #expect(try !Self.isReady(persister))
        let game = Self.game(after: 1)
        persister.save(game, at: 5)
        persister.finish()
        #expect(try Self.isReady(persister))
        #expect(persister.takeCompletions() == [Persister.Completion(generation: 1, failure: nil)])
        #expect(try !Self.isReady(persister))
        #expect(store.load() == .loaded(SavedGame(game: game, at: 5)))
    }

    @Test func aBurstOfSavesLeavesTheNewestGameOnDisk() throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-persister")
        defer { folder.remove() }
        let store = StateStore(directory: folder.path)
        let persister = try Persister(store: store)
        var game = Self.game(after: 0)
        for seed in 1...20 {
            _ = game.newGame(size: 3, seed: UInt64(seed), at: 0)
            persister.save(game, at: Double(seed))
        }
        persister.finish()
        // However many writes the burst became, they are in order and end with the newest.
        let generations = persister.takeCompletions().map(\.generation)
        #expect(generations.last == 20)
        #expect(generations == generations.sorted() && Set(generations).count == generations.count)
        #expect(store.load() == .loaded(SavedGame(game: game, at: 20)))
    }

    @Test func aSaveThatCannotBeWrittenSaysWhereAndWhy() throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-persister")
        defer { folder.remove() }
        // A state folder that was never made: the write cannot start.
        let store = StateStore(directory: folder.path + "/missing")
        let persister = try Persister(store: store)
        persister.save(Self.game(after: 2), at: 0)
        persister.finish()
        let completions = persister.takeCompletions()
        #expect(completions == [Persister.Completion(generation: 2,
                                                     failure: SaveFailure(path: store.path, errno: .noSuchFile))])
        #expect(completions.first?.failure?.description.hasPrefix(store.path + ": ") == true)
        #expect(store.load() == .nothingSaved)
    }

    @Test func nothingAskedNothingWritten() throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-persister")
        defer { folder.remove() }
        let store = StateStore(directory: folder.path)
        let persister = try Persister(store: store)
        persister.finish()
        #expect(persister.takeCompletions().isEmpty)
        #expect(store.load() == .nothingSaved)
    }
}
