// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
@testable import TiltDaemon
import TiltWire

/// `screen` through the hub (docs/protocol.md, "Screen rotation"): told in the greeting,
/// set for the next sample, to every client when it changes, never saved.
@Suite struct ScreenHubTests {
    static func rotated(_ rotation: ScreenRotation) -> Game {
        var configuration = TiltDetector.Configuration()
        configuration.screenRotation = rotation
        return Game(puzzle: Puzzle(side: 4), detector: TiltDetector(configuration: configuration))
    }

    @Test func theGreetingEndsWithTheRotationInForce() {
        let harness = HubHarness(game: Self.rotated(.half))
        let (_, client) = harness.attach()
        #expect(client.types() == ["hello", "state", "sensor", "settings", "screen"])
        #expect(client.messages.last?["rotation"]?.int == 180)
    }

    @Test func settingItTellsEveryoneOnceAndSavesNothing() {
        let harness = HubHarness()
        let (id, client) = harness.attach()
        let (other, watcher) = harness.attach()
        client.clear()
        watcher.clear()
        harness.send(#"{"cmd":"screen","rotation":90,"id":1}"# + "\n", from: id)
        #expect(client.types() == ["screen", "reply"])
        #expect(client.messages[0]["rotation"]?.int == 90)
        #expect(watcher.types() == ["screen"])
        #expect(harness.hub.game.detector.configuration.screenRotation == .quarter)
        #expect(harness.saves.isEmpty, "a rotation describes the display now: nothing to save")

        // The same again changes nothing: only the reply.
        client.clear()
        watcher.clear()
        harness.send(#"{"cmd":"screen","rotation":90,"id":2}"# + "\n", from: other)
        #expect(watcher.types() == ["reply"])
        #expect(client.types().isEmpty)
    }

    @Test func askingAnswersTheRotationThenTheReply() {
        let harness = HubHarness(game: Self.rotated(.threeQuarters))
        let (id, client) = harness.attach()
        client.clear()
        harness.send(#"{"cmd":"screen","id":"q"}"# + "\n", from: id)
        #expect(client.types() == ["screen", "reply"])
        #expect(client.messages[0]["rotation"]?.int == 270)
        #expect(client.messages[1]["cmd"]?.string == "screen" && client.messages[1]["id"]?.string == "q")
    }

    @Test func aBadRotationChangesNothing() {
        let harness = HubHarness()
        let (id, client) = harness.attach()
        harness.send(#"{"cmd":"screen","rotation":90}"# + "\n", from: id)
        client.clear()
        harness.send(#"{"cmd":"screen","rotation":45,"id":1}"# + "\n", from: id)
        #expect(client.types() == ["error"])
        #expect(client.messages[0]["code"]?.string == "bad-argument")
        #expect(harness.hub.game.screenRotation == .quarter)
    }

    @Test func theNextSampleIsReadForTheNewRotation() {
        let harness = HubHarness()
        let (id, client) = harness.attach()
        harness.hub.sensorChanged(SensorReport(status: .active, kind: "replay", name: "trace"))
        let g = standardGravity
        // Flat (neutral), then the device's right edge lowered 30°: at a quarter turn, up.
        harness.hub.sensorSamples((0..<10).map { Sample(time: Double($0) / 100, x: 0, y: 0, z: g) })
        harness.send(#"{"cmd":"screen","rotation":90}"# + "\n", from: id)
        client.clear()
        let s = TiltDetector.sine(degrees: 30)
        harness.hub.sensorSamples((10..<40).map { i in
            let f = min(1, Double(i - 9) / 20)
            return Sample(time: Double(i) / 100, x: -s * f * g, y: 0, z: (1 - s * s * f * f).squareRoot() * g)
        })
        let tilts = client.messages.filter { $0["type"]?.string == "tilt" }
        #expect(tilts.map { $0["direction"]?.string } == ["up"])
    }

    @Test func aRotationAClientSetOutlivesAReloadAndTheFilesIsTheDefault() {
        let harness = HubHarness()
        let (id, client) = harness.attach()
        var file = TiltDetector.Configuration()
        file.screenRotation = .half
        client.clear()
        harness.hub.reconfigure(file, undoLimit: 1000)
        #expect(client.types() == ["screen"], "the file's rotation is in force until a client sets one")
        #expect(client.messages.last?["rotation"]?.int == 180)
        harness.send(#"{"cmd":"screen","rotation":270}"# + "\n", from: id)
        client.clear()
        file.screenRotation = .quarter
        harness.hub.reconfigure(file, undoLimit: 1000)
        #expect(client.types().isEmpty)
        #expect(harness.hub.game.screenRotation == .threeQuarters)
    }
}
