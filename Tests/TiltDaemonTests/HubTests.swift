// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
@testable import TiltDaemon
import TiltWire

@Suite struct HubTests {
    @Test func attachSendsHelloStateSensorAndClaimsTheSensor() {
        let harness = HubHarness()
        let (_, client) = harness.attach()
        #expect(client.types() == ["hello", "state", "sensor", "settings", "screen"])
        #expect(client.messages[0]["protocol"]?.int == 1)
        #expect(client.messages[1]["board"] == .array((0..<16).map { .number(String($0)) }))
        #expect(harness.claims == [true])
        let (second, _) = harness.attach()
        #expect(harness.claims == [true])
        harness.hub.detach(second, reason: "test")
        harness.hub.detach(1, reason: "test")
        #expect(harness.claims == [true, false])
    }

    /// docs/puzzle.md's test vector through `tilt` commands: moves with increasing revisions,
    /// each reply after the events it caused.
    @Test func seedVectorThroughTiltCommands() {
        let harness = HubHarness()
        let (id, client) = harness.attach()
        let (_, watcher) = harness.attach()
        client.clear()
        watcher.clear()
        for (n, direction) in ["right", "down", "right", "down"].enumerated() {
            harness.send(#"{"cmd":"tilt","direction":"\#(direction)","id":\#(n)}"# + "\n", from: id)
        }
        let moves = watcher.messages.filter { $0["type"]?.string == "move" }
        #expect(moves.map { [$0["from"]!.int!, $0["to"]!.int!] } == [[14, 15], [10, 14], [9, 10], [5, 9]])
        #expect(moves.map { $0["revision"]!.int! } == [1, 2, 3, 4])
        #expect(moves.map { $0["moves"]!.int! } == [1, 2, 3, 4])
        #expect(moves.allSatisfy { $0["cause"]?.string == "command" })
        #expect(client.types() == ["move", "reply", "move", "reply", "move", "reply", "move", "reply"])
        #expect(client.messages[1]["id"]?.int == 0 && client.messages[1]["moved"]?.int == 1)
        #expect(harness.hub.game.puzzle.board.values == [0, 1, 2, 3, 4, 15, 6, 7, 8, 5, 9, 11, 12, 13, 10, 14])
        #expect(!watcher.types().contains("reply"))
    }

    @Test func illegalTiltRepliesWithNothingMoved() {
        let harness = HubHarness()
        let (id, client) = harness.attach()
        client.clear()
        harness.send(#"{"cmd":"tilt","direction":"left","id":"a"}"# + "\n", from: id)
        #expect(client.types() == ["reply"])
        #expect(client.messages[0]["moved"]?.int == 0)
        #expect(harness.saves.isEmpty)
    }

    @Test func replyWaitsUntilTheChangeIsSaved() {
        let harness = HubHarness()
        harness.autoSave = false
        let (id, client) = harness.attach()
        client.clear()
        harness.send(#"{"cmd":"tilt","direction":"right","id":1}"# + "\n" + #"{"cmd":"state","id":2}"# + "\n", from: id)
        // The move goes out at once; both replies wait (in order) for the save.
        #expect(client.types() == ["move"])
        #expect(harness.saves == [1])
        harness.hub.saveCompleted(generation: 1, failure: nil)
        #expect(client.types() == ["move", "reply", "state", "reply"])
    }

    @Test func aFailedSaveIsReportedToTheRequester() {
        let harness = HubHarness()
        harness.autoSave = false
        let (id, client) = harness.attach()
        client.clear()
        harness.send(#"{"cmd":"undo","id":1}"# + "\n" + #"{"cmd":"tilt","direction":"right","id":2}"# + "\n", from: id)
        harness.hub.saveCompleted(generation: 1, failure: SaveFailure(path: "game.json", errno: .noSpace))
        #expect(client.types() == ["reply", "move", "error"])
        #expect(client.messages[2]["code"]?.string == "save-failed")
        #expect(client.messages[2]["id"]?.int == 2)
    }

    @Test func undoAndRedoThroughTheProtocol() {
        let harness = HubHarness()
        let (id, client) = harness.attach()
        harness.send(#"{"cmd":"slide","index":12}"# + "\n", from: id)
        client.clear()
        harness.send(#"{"cmd":"undo"}"# + "\n", from: id)
        let undone = client.messages.filter { $0["type"]?.string == "move" }
        #expect(undone.count == 3)
        #expect(undone.allSatisfy { $0["cause"]?.string == "undo" })
        #expect(undone.map { $0["moves"]!.int! } == [2, 1, 0])
        #expect(undone.last?["solved"] == .bool(true))
        #expect(client.types().last == "reply")
        #expect(client.types().contains("solved"))
        client.clear()
        harness.send(#"{"cmd":"redo"}"# + "\n", from: id)
        #expect(client.messages.filter { $0["type"]?.string == "move" }.map { $0["cause"]!.string! } == ["redo", "redo", "redo"])
        #expect(harness.hub.game.puzzle.moves == 3)
    }

    @Test func newGameBroadcastsState() {
        let harness = HubHarness()
        let (id, client) = harness.attach()
        client.clear()
        harness.send(#"{"cmd":"new","size":3,"seed":7,"id":"n"}"# + "\n", from: id)
        #expect(client.types() == ["state", "reply"])
        #expect(client.messages[0]["size"]?.int == 3)
        #expect(client.messages[0]["revision"]?.int == 1)
        #expect(harness.hub.game.puzzle.board == Puzzle.newGame(side: 3, seed: 7).board)
        harness.send(#"{"cmd":"new","shuffle":false}"# + "\n", from: id)
        #expect(harness.hub.game.puzzle.isSolved && harness.hub.game.puzzle.side == 3)
    }

    @Test(arguments: [
        ("not json", "invalid-json"),
        ("[1,2]", "not-an-object"),
        (#"{"id":5}"#, "missing-cmd"),
        (#"{"cmd":5}"#, "missing-cmd"),
        (#"{"cmd":"fly"}"#, "unknown-command"),
        (#"{"cmd":"tilt"}"#, "bad-argument"),
        (#"{"cmd":"tilt","direction":"sideways"}"#, "bad-argument"),
        (#"{"cmd":"tilt","direction":3}"#, "bad-argument"),
        (#"{"cmd":"move","index":16,"direction":"up"}"#, "bad-argument"),
        (#"{"cmd":"move","index":-1,"direction":"up"}"#, "bad-argument"),
        (#"{"cmd":"move","index":1.5,"direction":"up"}"#, "bad-argument"),
        (#"{"cmd":"slide","index":"3"}"#, "bad-argument"),
        (#"{"cmd":"new","size":11}"#, "bad-argument"),
        (#"{"cmd":"new","size":1}"#, "bad-argument"),
        (#"{"cmd":"new","seed":-4}"#, "bad-argument"),
        (#"{"cmd":"new","shuffle":"yes"}"#, "bad-argument"),
        (#"{"cmd":"new","size":4.5}"#, "bad-argument"),
        (#"{"cmd":"tilt","direction":null}"#, "bad-argument"),
        (#"{"cmd":"subscribe"}"#, "bad-argument"),
        (#"{"cmd":"calibrate"}"#, "no-sensor"),
    ])
    func badInputGetsAnErrorWithAStableCode(line: String, code: String) {
        let harness = HubHarness()
        let (id, client) = harness.attach()
        let (_, other) = harness.attach()
        client.clear()
        other.clear()
        harness.send(line + "\n", from: id)
        #expect(client.types() == ["error"])
        #expect(client.messages.first?["code"]?.string == code)
        #expect(!client.closed)
        #expect(other.received.isEmpty)
        // The session goes on.
        harness.send(#"{"cmd":"state","id":9}"# + "\n", from: id)
        #expect(client.types().suffix(2) == ["state", "reply"])
    }

    @Test func invalidUTF8AndIdsAreEchoed() {
        let harness = HubHarness()
        let (id, client) = harness.attach()
        client.clear()
        [UInt8]([0xFF, 0xFE, 0x0A]).withUnsafeBytes { harness.hub.receive($0, from: id) }
        harness.send(#"{"cmd":"nope","id":{"k":[1,"x"]}}"# + "\n", from: id)
        #expect(client.messages.map { $0["code"]?.string } == ["invalid-utf8", "unknown-command"])
        #expect(client.messages[1]["id"] == .object([("k", .array([.number("1"), .string("x")]))]))
    }

    @Test func halfLinesWaitForTheirEnd() {
        let harness = HubHarness()
        let (id, client) = harness.attach()
        client.clear()
        harness.send(#"{"cmd":"ti"#, from: id)
        #expect(client.received.isEmpty)
        harness.send(#"lt","direction":"right"}"# + "\n", from: id)
        #expect(client.types() == ["move", "reply"])
    }

    @Test func anOverlongLineIsAnsweredAndTheClientClosed() {
        let harness = HubHarness()
        let (id, client) = harness.attach()
        client.clear()
        harness.send(String(repeating: "x", count: WireProtocol.maxLineLength + 1), from: id)
        #expect(client.types() == ["error"])
        #expect(client.messages[0]["code"]?.string == "line-too-long")
        #expect(client.closed)
        #expect(harness.hub.clientCount == 0)
    }

    @Test func theClientLimitIsEnforced() {
        var limits = Hub.Limits()
        limits.maxClients = 3
        let harness = HubHarness(limits: limits)
        for _ in 0..<3 { _ = harness.attach() }
        let extra = MemoryTransport()
        #expect(harness.hub.attach(extra) == nil)
        #expect(extra.closed)
        // `hello` is every connection's first line, then the reason (docs/protocol.md, "Errors").
        #expect(extra.types() == ["hello", "error"])
        #expect(extra.messages.last?["code"]?.string == "too-many-clients")
    }

    /// 200 clients: one never reads, one floods garbage; every other client gets every move.
    @Test func slowAndAbusiveClientsDoNotHurtOthers() {
        var limits = Hub.Limits()
        limits.maxQueuedBytes = 16 * 1024
        let harness = HubHarness(limits: limits)
        var clients: [(Int, MemoryTransport)] = (0..<200).map { _ in harness.attach() }
        let (_, stuck) = clients[7]
        stuck.reading = false
        let (flooder, _) = clients[13]
        let (player, _) = clients[0]
        for (_, client) in clients { client.clear() }
        for round in 0..<400 {
            harness.send(String(repeating: "garbage\n", count: 20), from: flooder)
            let direction = round % 2 == 0 ? "right" : "left"
            harness.send(#"{"cmd":"tilt","direction":"\#(direction)"}"# + "\n", from: player)
        }
        #expect(stuck.closed, "the client that never reads is dropped")
        #expect(harness.hub.clientCount == 199)
        clients.removeAll { $0.1 === stuck }
        for (id, client) in clients where id != flooder {
            let moves = client.messages.filter { $0["type"]?.string == "move" }
            #expect(moves.count == 400)
            #expect(moves.map { $0["revision"]!.int! } == Array(1...400))
        }
    }

    @Test func sensorSamplesTiltThePuzzleAndReachSubscribers() {
        let harness = HubHarness()
        let (id, client) = harness.attach()
        harness.send(#"{"cmd":"subscribe","samples":true}"# + "\n", from: id)
        client.clear()
        let g = standardGravity
        var samples: [Sample] = (0..<10).map { Sample(time: Double($0) / 100, x: 0, y: 0, z: g) }
        // Tilt left edge down 30°: x positive, "left": illegal from solved.
        samples += (1...20).map { i in
            let angle = Double(i) * 1.5 * Double.pi / 180
            return Sample(time: 0.1 + Double(i) / 100, x: g * angle, y: 0, z: g)
        }
        harness.hub.sensorSamples(samples)
        #expect(client.types().filter { $0 == "sample" }.count == 30)
        let tilts = client.messages.filter { $0["type"]?.string == "tilt" }
        #expect(tilts.count == 1)
        #expect(tilts.first?["direction"]?.string == "left")
        #expect(tilts.first?["moved"] == .bool(false))
        #expect(!client.types().contains("move"))
    }

    @Test func sensorStatusIsBroadcast() {
        let harness = HubHarness()
        let (_, client) = harness.attach()
        client.clear()
        harness.hub.sensorChanged(SensorReport(status: .active, kind: "iio", name: "accel_3d"))
        harness.hub.sensorChanged(SensorReport(status: .active, kind: "iio", name: "accel_3d"))
        #expect(client.types() == ["sensor"])
        #expect(client.messages[0]["status"]?.string == "active")
    }
}

/// Behaviour the review asked for: replies and sessions at the edges.
@Suite struct HubEdgeTests {
    @Test func aClientThatClosesItsSideStillGetsItsReplies() {
        let harness = HubHarness()
        harness.autoSave = false
        let (id, client) = harness.attach()
        client.clear()
        harness.send(#"{"cmd":"tilt","direction":"right","id":1}"# + "\n", from: id)
        harness.hub.endOfInput(from: id)
        #expect(!client.closed, "the reply is still owed")
        harness.hub.saveCompleted(generation: harness.hub.game.generation, failure: nil)
        #expect(client.types() == ["move", "reply"])
        #expect(client.closed)
        #expect(harness.hub.clientCount == 0)
    }

    @Test func stateRepliesAreNeverOlderThanTheEventsBeforeThem() {
        let harness = HubHarness()
        harness.autoSave = false
        let (id, client) = harness.attach()
        let (other, _) = harness.attach()
        client.clear()
        harness.send(#"{"cmd":"tilt","direction":"right","id":1}"# + "\n" + #"{"cmd":"state","id":2}"# + "\n", from: id)
        harness.send(#"{"cmd":"tilt","direction":"down"}"# + "\n", from: other)
        harness.hub.saveCompleted(generation: harness.hub.game.generation, failure: nil)
        let state = client.messages.first { $0["type"]?.string == "state" }
        let lastMove = client.messages.last { $0["type"]?.string == "move" }
        #expect(state?["revision"] == lastMove?["revision"])
        #expect(state?["revision"]?.int == 2)
    }

    @Test func requestsThatChangeNothingNeitherWaitNorFailWithTheSave() {
        let harness = HubHarness()
        harness.autoSave = false
        let (id, client) = harness.attach()
        client.clear()
        harness.send(#"{"cmd":"tilt","direction":"left","id":1}"# + "\n", from: id)   // illegal from solved
        #expect(client.types() == ["reply"], "no save to wait for")
        harness.send(#"{"cmd":"tilt","direction":"right","id":2}"# + "\n" + #"{"cmd":"sensor","id":3}"# + "\n", from: id)
        harness.hub.saveCompleted(generation: harness.hub.game.generation, failure: SaveFailure(path: "game.json", errno: .noSpace))
        #expect(client.types() == ["reply", "move", "error", "sensor", "reply"])
        #expect(client.messages[2]["code"]?.string == "save-failed")
        #expect(client.messages[4]["id"]?.int == 3)
    }

    @Test func overlongIdsAreAnsweredSensibly() {
        let harness = HubHarness()
        let (id, client) = harness.attach()
        client.clear()
        let longID = String(repeating: "x", count: 2000)
        harness.send(#"{"cmd":"state","id":"\#(longID)"}"# + "\n", from: id)
        #expect(client.messages.first?["code"]?.string == "bad-argument")
        #expect(client.messages.first?["id"] == nil)
    }

    @Test func aNewSensorStreamRestartsTheDetector() {
        let harness = HubHarness()
        _ = harness.attach()
        let g = standardGravity
        harness.hub.sensorSamples([Sample(time: 0, x: 0, y: 0, z: g)])
        #expect(harness.hub.game.detector.phase == .armed && harness.hub.game.detector.lastGravity != nil)
        harness.hub.sensorChanged(SensorReport(status: .active, kind: "evdev", name: "other"))
        #expect(harness.hub.game.detector.phase == .waitingForNeutral)
        #expect(harness.hub.game.detector.lastGravity == nil, "no stale pose to calibrate from")
    }

    @Test func shrinkingTheUndoBoundTellsTheClients() {
        let harness = HubHarness()
        let (id, client) = harness.attach()
        harness.send(#"{"cmd":"tilt","direction":"right"}"# + "\n", from: id)
        client.clear()
        harness.hub.reconfigure(TiltDetector.Configuration(), undoLimit: 0)
        #expect(client.types() == ["state"])
        #expect(client.messages.first?["canUndo"] == .bool(false))
        #expect(client.messages.first?["revision"]?.int == 2)
    }
}

/// Flow control (docs/protocol.md): a client with too much waiting is paused, not
/// refused; it goes on when its replies go out; a client that does not read is
/// still dropped.
@Suite struct HubFlowControlTests {
    static func tilts(_ ids: ClosedRange<Int>) -> String {
        ids.map { #"{"cmd":"tilt","direction":"\#($0 % 2 == 1 ? "right" : "left")","id":\#($0)}"# + "\n" }.joined()
    }

    static func replyIDs(_ client: MemoryTransport) -> [Int] {
        client.messages.filter { $0["type"]?.string == "reply" }.compactMap { $0["id"]?.int }
    }

    @Test func aPipeliningClientIsPausedAndResumedNotRefused() {
        var limits = Hub.Limits()
        limits.maxPendingReplies = 4
        let harness = HubHarness(limits: limits)
        harness.autoSave = false
        let (id, client) = harness.attach()
        let (_, watcher) = harness.attach()
        client.clear()
        watcher.clear()
        harness.send(Self.tilts(1...10), from: id)
        // Four ran; the other six wait, unread by the hub, and the socket is no longer read.
        #expect(harness.hub.game.generation == 4)
        #expect(harness.hub.isPaused(id))
        #expect(!harness.hub.wantsInput(id))
        #expect(harness.readWatch.map { [$0.id, $0.on ? 1 : 0] } == [[id, 0]])
        #expect(Self.replyIDs(client).isEmpty, "no reply before its change is saved")
        harness.hub.saveCompleted(generation: 4, failure: nil)
        // Four answered; the next four ran from the held bytes, and the client is paused again.
        #expect(Self.replyIDs(client) == [1, 2, 3, 4])
        #expect(harness.hub.game.generation == 8)
        #expect(harness.hub.isPaused(id))
        #expect(harness.saves.last == 8)
        harness.hub.saveCompleted(generation: 8, failure: nil)
        #expect(harness.hub.game.generation == 10)
        #expect(!harness.hub.isPaused(id))
        #expect(harness.hub.wantsInput(id))
        // Resumed from held bytes and paused again without reading: no change to the watch until now.
        #expect(harness.readWatch.map { [$0.id, $0.on ? 1 : 0] } == [[id, 0], [id, 1]])
        harness.hub.saveCompleted(generation: 10, failure: nil)
        #expect(Self.replyIDs(client) == Array(1...10))
        #expect(!client.types().contains("error"))
        // Each reply after the move it caused.
        let order = client.messages.compactMap { $0["revision"]?.int ?? $0["id"]?.int.map { -$0 } }
        for n in 1...10 {
            #expect(order.firstIndex(of: n)! < order.firstIndex(of: -n)!)
        }
        let moves = { (c: MemoryTransport) in c.messages.filter { $0["type"]?.string == "move" }.map { $0["revision"]!.int! } }
        #expect(moves(watcher) == Array(1...10))
        #expect(moves(client) == Array(1...10))
        #expect(!client.closed)
    }

    /// Bytes that arrive while a client is paused (the daemon does not read them,
    /// but a transport may hand them over) wait behind the held ones.
    @Test func inputWhilePausedWaitsInOrder() {
        var limits = Hub.Limits()
        limits.maxPendingReplies = 3
        let harness = HubHarness(limits: limits)
        harness.autoSave = false
        let (id, client) = harness.attach()
        client.clear()
        harness.send(Self.tilts(1...5), from: id)
        harness.send(Self.tilts(6...7) + #"{"cmd":"state","id":8}"# + "\n", from: id)
        #expect(harness.hub.game.generation == 3)
        while harness.hub.game.generation > harness.hub.savedGeneration {
            harness.hub.saveCompleted(generation: harness.hub.game.generation, failure: nil)
        }
        #expect(Self.replyIDs(client) == Array(1...8))
        #expect(client.messages.last { $0["type"]?.string == "state" }?["revision"]?.int == 7)
        #expect(!harness.hub.isPaused(id))
    }

    /// Unsent output pauses a client too, well before the drop bound; once it
    /// reads, it goes on, and gets every answer.
    @Test func aClientPausedByItsOutputGoesOnWhenItReads() {
        var limits = Hub.Limits()
        limits.maxQueuedBytes = 8192
        let harness = HubHarness(limits: limits)
        let (id, client) = harness.attach()
        client.clear()
        client.reading = false
        let requests = (1...200).map { #"{"cmd":"state","id":\#($0)}"# + "\n" }.joined()
        harness.send(requests, from: id)
        #expect(harness.hub.isPaused(id))
        #expect(harness.hub.isAttached(id), "its own answers never get it dropped")
        client.reading = true
        harness.hub.writable(id)
        #expect(Self.replyIDs(client) == Array(1...200))
        #expect(client.types().filter { $0 == "state" }.count == 200)
        #expect(!harness.hub.isPaused(id))
        #expect(!client.closed)
    }

    /// A client that reads nothing is paused, and dropped once what others cause
    /// pushes its output over the bound; the others get all their answers.
    @Test func aClientThatDoesNotReadIsStillDropped() {
        var limits = Hub.Limits()
        limits.maxQueuedBytes = 8192
        let harness = HubHarness(limits: limits)
        let (stuckID, stuck) = harness.attach()
        let (player, client) = harness.attach()
        stuck.reading = false
        client.clear()
        harness.send((1...100).map { #"{"cmd":"state","id":\#($0)}"# + "\n" }.joined(), from: stuckID)
        #expect(harness.hub.isPaused(stuckID))
        harness.send(Self.tilts(1...200), from: player)
        #expect(stuck.closed)
        #expect(!harness.hub.isAttached(stuckID))
        #expect(Self.replyIDs(client) == Array(1...200))
    }

    /// Whatever one write holds, the hub runs at most the pending bound before it
    /// pauses: the replies waiting, and so memory, stay bounded.
    @Test func aHugeBurstRunsNoMoreThanTheBoundAtOnce() {
        let harness = HubHarness()
        harness.autoSave = false
        let (id, _) = harness.attach()
        harness.send(Self.tilts(1...5000), from: id)
        #expect(harness.hub.game.generation == Hub.Limits().maxPendingReplies)
        #expect(harness.hub.isPaused(id))
        while harness.hub.game.generation > harness.hub.savedGeneration {
            harness.hub.saveCompleted(generation: harness.hub.game.generation, failure: nil)
        }
        #expect(harness.hub.game.generation == 5000)
        #expect(harness.saves.count == 5, "one save for each batch of 1,024 changes")
    }
}

@Suite struct OutputQueueTests {
    /// Small messages are written together; partial writes that end inside any of
    /// them lose and repeat nothing.
    @Test func gatheredWritesKeepEveryByteInOrder() {
        let transport = MemoryTransport()
        var queue = OutputQueue()
        var expected: [UInt8] = []
        for n in 0..<500 {
            let message = Array("message \(n) \(String(repeating: "x", count: n % 37))\n".utf8)
            queue.append(message)
            expected += message
        }
        var big = [UInt8](repeating: UInt8(ascii: "b"), count: OutputQueue.gatherLimit + 10)
        big.append(10)
        queue.append(big)
        expected += big
        queue.append(Array("last\n".utf8))
        expected += Array("last\n".utf8)
        transport.takeAtMost = 997
        var rounds = 0
        while !queue.isEmpty, rounds < 10_000 {
            let alive = queue.drain(into: transport)
            #expect(alive)
            rounds += 1
        }
        #expect(transport.received == expected)
        #expect(queue.byteCount == 0)
    }
}

/// `new` with a `board`: a position to practise or to share (docs/protocol.md).
@Suite struct HubNewBoardTests {
    @Test func aGoodBoardStartsANewGameFromIt() {
        let harness = HubHarness()
        let (id, client) = harness.attach()
        let (_, watcher) = harness.attach()
        harness.send(#"{"cmd":"tilt","direction":"right"}"# + "\n", from: id)
        client.clear()
        watcher.clear()
        let board = [0, 1, 2, 3, 4, 5, 6, 8, 7]
        harness.send(#"{"cmd":"new","board":[0,1,2,3,4,5,6,8,7],"id":1}"# + "\n", from: id)
        #expect(client.types() == ["state", "reply"])
        let state = watcher.messages.first
        #expect(state?["type"]?.string == "state")
        #expect(state?["size"]?.int == 3)
        #expect(state?["board"] == .array(board.map { .number(String($0)) }))
        #expect(state?["moves"]?.int == 0)
        #expect(state?["canUndo"] == .bool(false))
        #expect(state?["revision"]?.int == 2)
        #expect(harness.hub.game.puzzle.board.values == board)
        #expect(harness.saves.last == harness.hub.game.generation, "saved before the reply")
    }

    @Test(arguments: [
        (#""board":[0,1,2]"#, "not 3"),
        (#""board":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17]"#, "not 18"),
        (#""board":[0,1,2,3,4,5,6,7,9]"#, "the value 9 at index 8 is out of range"),
        (#""board":[0,1,2,3,4,5,6,7,-1]"#, "the value -1 at index 8 is out of range"),
        (#""board":[0,1,2,3,4,5,6,7,7]"#, "the value 7 appears more than once"),
        (#""board":[1,0,2,3,4,5,6,7,8]"#, "cannot be solved"),
        (#""board":[0,1,2,"3"]"#, "array of whole numbers"),
        (#""board":[0,1,2,3.5]"#, "array of whole numbers"),
        (#""board":"0,1,2,3""#, "array of whole numbers"),
        (#""board":[0,1,3,2],"size":3"#, "\"size\" is 3 but the board is 2×2"),
        (#""board":[0,1,3,2],"seed":4"#, "no \"seed\" or \"shuffle\""),
        (#""board":[0,1,3,2],"shuffle":false"#, "no \"seed\" or \"shuffle\""),
    ])
    func aBadBoardIsRefusedWithItsReasonAndChangesNothing(arguments: String, reason: String) {
        let harness = HubHarness()
        let (id, client) = harness.attach()
        let (_, watcher) = harness.attach()
        client.clear()
        watcher.clear()
        let before = harness.hub.game
        harness.send(#"{"cmd":"new",\#(arguments),"id":7}"# + "\n", from: id)
        #expect(client.types() == ["error"])
        #expect(client.messages.first?["code"]?.string == "bad-argument")
        #expect(client.messages.first?["id"]?.int == 7)
        let message = client.messages.first?["message"]?.string ?? ""
        #expect(message.contains(reason), "\(message)")
        #expect(harness.hub.game.puzzle == before.puzzle)
        #expect(harness.hub.game.generation == before.generation)
        #expect(watcher.received.isEmpty)
        #expect(harness.saves.isEmpty)
    }
}

