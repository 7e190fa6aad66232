// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
@testable import TiltDaemon
import TiltWire

/// The points of docs/protocol.md a client written from it alone relies on.
@Suite struct HubProtocolPointsTests {
    @Test func blankLinesAreIgnoredAndGetNoAnswer() {
        let harness = HubHarness()
        let (id, client) = harness.attach()
        client.clear()
        harness.send("\n \n\t \r\n" + #"{"cmd":"state","id":1}"# + "\r\n", from: id)
        #expect(client.types() == ["state", "reply"])
        harness.send("x\n", from: id)
        #expect(client.types().last == "error", "a line that is not blank is still answered")
    }

    @Test func theGreetingStateCarriesRecordsEvenWhenThereAreNone() {
        let harness = HubHarness()
        let (_, client) = harness.attach()
        #expect(client.messages[1]["type"]?.string == "state")
        #expect(client.messages[1]["records"] == .array([]))
    }

    @Test func aConfigureThatChangesNothingStillSendsSettingsToEveryone() {
        let harness = HubHarness()
        let (id, client) = harness.attach()
        let (_, other) = harness.attach()
        harness.send(#"{"cmd":"configure","trigger":25,"id":1}"# + "\n", from: id)
        client.clear()
        other.clear()
        harness.send(#"{"cmd":"configure","trigger":25,"id":2}"# + "\n", from: id)
        #expect(client.types() == ["settings", "reply"])
        #expect(other.types() == ["settings"])
        #expect(other.messages[0]["trigger"]?.double == 25)
        #expect(harness.saves.count == 1, "only the change was saved")
    }

    @Test func calibrateAfterTheStreamEndedIsRefused() {
        let harness = HubHarness()
        let (id, client) = harness.attach()
        harness.hub.sensorChanged(SensorReport(status: .active, kind: "replay", name: "trace"))
        harness.hub.sensorSamples([Sample(time: 0, x: 0, y: 0, z: standardGravity)])
        harness.send(#"{"cmd":"calibrate","id":1}"# + "\n", from: id)
        #expect(client.types().suffix(2) == ["calibrated", "reply"], "a reading of the running stream")
        harness.hub.sensorChanged(SensorReport(status: .ended, kind: "replay", name: "trace"))
        client.clear()
        harness.send(#"{"cmd":"calibrate","id":2}"# + "\n", from: id)
        #expect(client.types() == ["error"])
        #expect(client.messages.first?["code"]?.string == "no-sensor")
    }

    @Test func wholeNumbersAndNullReachTheGame() {
        let harness = HubHarness()
        let (id, client) = harness.attach()
        client.clear()
        harness.send(#"{"cmd":"new","size":3.0,"shuffle":null,"seed":7e0,"id":1}"# + "\n", from: id)
        #expect(client.types() == ["state", "reply"])
        #expect(harness.hub.game.puzzle.board == Puzzle.newGame(side: 3, seed: 7).board)
        client.clear()
        harness.send(#"{"cmd":"new","size":3.5,"id":2}"# + "\n", from: id)
        #expect(client.messages.first?["code"]?.string == "bad-argument")
    }
}
