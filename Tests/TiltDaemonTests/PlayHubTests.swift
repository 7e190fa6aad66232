import Testing
import TiltCore
@testable import TiltDaemon
import TiltWire

/// Samples at 100 Hz of a pose `y` degrees about the screen's horizontal axis (and `x`
/// about its vertical axis), from `start` seconds.
func heldSamples(x: Double = 0, y: Double, seconds: Double, start: Double = 0) -> [Sample] {
    let g = standardGravity
    let sx = TiltDetector.sine(degrees: x), sy = TiltDetector.sine(degrees: y)
    let z = (1 - sx * sx - sy * sy).squareRoot()
    return (0..<Int(seconds * 100)).map { Sample(time: start + Double($0) / 100, x: g * sx, y: g * sy, z: g * z) }
}

/// Auto-neutral through the hub: the event, the save (docs/protocol.md, docs/tilt-detection.md).
@Suite struct AutoNeutralHubTests {
    @Test func aStillStartingPoseIsAnnouncedAndSaved() throws {
        let harness = HubHarness()
        let (_, client) = harness.attach()
        harness.hub.sensorChanged(SensorReport(status: .active, kind: "iio", name: "accel_3d"))
        client.clear()
        harness.saves.removeAll()
        harness.hub.sensorSamples(heldSamples(y: 35, seconds: 1.5))
        #expect(client.types() == ["calibrated"])
        #expect(client.messages.first?["auto"] == .bool(true))
        #expect(harness.saves.count == 1, "saved like a manual calibration")
        let saved = SavedGame(game: harness.hub.game, at: 0)
        let neutral = try #require(saved.neutral)
        #expect(abs(neutral.y - TiltDetector.sine(degrees: 35)) < 1e-6)
    }

    @Test func aManualCalibrationIsAnnouncedToEveryClient() {
        let harness = HubHarness()
        let (id, client) = harness.attach()
        let (_, watcher) = harness.attach()
        harness.hub.sensorSamples(heldSamples(y: 3, seconds: 0.1))
        client.clear()
        watcher.clear()
        harness.send(#"{"cmd":"calibrate","id":1}"# + "\n", from: id)
        #expect(client.types() == ["calibrated", "reply"])
        #expect(watcher.types() == ["calibrated"])
        #expect(watcher.messages.first?["auto"] == .bool(false))
    }

    @Test func startingFlatAnnouncesNothing() {
        let harness = HubHarness()
        let (_, client) = harness.attach()
        client.clear()
        harness.hub.sensorSamples(heldSamples(y: 0, seconds: 3))
        #expect(client.types().isEmpty)
        #expect(harness.hub.game.detector.neutral == .flat)
    }
}
