// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltCore
@testable import TiltDaemon
import TiltSystem

@Suite(.serialized) struct StateStoreTests {
    static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "store-\(getpid())-\(UInt32.random(in: 0 ... .max))/nested"
        return path
    }

    static func game() -> Game {
        var puzzle = Puzzle.newGame(side: 3, seed: 4)
        puzzle.tilt(.up)
        puzzle.tilt(.left)
        puzzle.undo()
        var detector = TiltDetector()
        detector.setNeutral(Vector3(0, 0.5, 0.8))
        return Game(puzzle: puzzle, detector: detector, revision: 12, playTime: 30)
    }

    @Test func savesAndLoadsTheWholeGame() throws {
        let store = StateStore(directory: Self.temporaryDirectory())
        try store.prepare()
        defer { try? FileManager.default.removeItem(atPath: store.directory) }
        #expect(store.load() == .nothingSaved)
        try store.save(SavedGame(game: Self.game(), at: 0))
        guard case .loaded(let saved) = store.load() else {
            Issue.record("not loaded")
            return
        }
        #expect(saved.puzzle == Self.game().puzzle)
        #expect(saved.revision == 12 && saved.time == 30)
        #expect(saved.neutral == Vector3(0, 0.5, 0.8) * (1 / Vector3(0, 0.5, 0.8).length))
        #expect(!FileManager.default.fileExists(atPath: store.path + ".tmp"))
        let mode = try FileManager.default.attributesOfItem(atPath: store.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test(arguments: ["", "not json", #"{"format":99}"#, #"{"format":1,"revision":0,"time":0,"puzzle":{"size":2,"board":[1,0,2,3],"moves":0,"history":{"limit":1,"undo":"","redo":""}}}"#])
    func corruptFilesAreSetAside(content: String) throws {
        let store = StateStore(directory: Self.temporaryDirectory())
        try store.prepare()
        defer { try? FileManager.default.removeItem(atPath: store.directory) }
        try content.write(toFile: store.path, atomically: false, encoding: .utf8)
        guard case .corrupt(let reason, let aside?) = store.load() else {
            Issue.record("not reported as corrupt")
            return
        }
        #expect(!reason.isEmpty)
        #expect(FileManager.default.fileExists(atPath: aside))
        #expect(!FileManager.default.fileExists(atPath: store.path))
        #expect(store.load() == .nothingSaved)
    }

    /// A failing fsync leaves the previous file whole and no temporary behind.
    @Test func aFailedWriteKeepsThePreviousGame() throws {
        let store = StateStore(directory: Self.temporaryDirectory())
        try store.prepare()
        defer { try? FileManager.default.removeItem(atPath: store.directory) }
        let first = SavedGame(game: Game(puzzle: Puzzle(side: 2), detector: TiltDetector()), at: 0)
        try store.save(first)
        Syscall.withFaults({ $0 == "fsync" ? .noSpace : nil }) {
            #expect(throws: Errno.noSpace) { try store.save(SavedGame(game: Self.game(), at: 0)) }
        }
        #expect(store.load() == .loaded(first))
        #expect(!FileManager.default.fileExists(atPath: store.path + ".tmp"))
    }
}

@Suite struct SavedGameTests {
    @Test(arguments: ["revision", "moves"])
    func countersNoGameCouldReachAreRefused(field: String) {
        let revision = field == "revision" ? "9223372036854775807" : "1"
        let moves = field == "moves" ? "9223372036854775807" : "1"
        let json = #"{"format":1,"revision":\#(revision),"time":0,"puzzle":{"size":2,"board":[0,1,3,2],"moves":\#(moves),"history":{"limit":10,"undo":"","redo":""}}}"#
        #expect(throws: SavedGame.Problem.self) { try SavedGame(json: Array(json.utf8)) }
    }

    @Test func roundTripsThroughItsOwnEncoding() throws {
        let game = StateStoreTests.game()
        let saved = SavedGame(game: game, at: 0)
        #expect(try SavedGame(json: saved.encoded()) == saved)
    }
}
