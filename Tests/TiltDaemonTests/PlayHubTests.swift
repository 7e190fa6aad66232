// SPDX-License-Identifier: GPL-3.0-or-later
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

/// A hub whose clock the test moves.
final class ClockedHub: HubDelegate {
    var now = 100.0
    private let game: Game
    /// Made on first use: the hub needs its delegate, this harness, from the start.
    private(set) lazy var hub = Hub(game: game, version: "test", log: Logger(level: .error) { _ in },
                                    clock: { [unowned self] in now }, delegate: self)

    init(game: Game = Game(puzzle: Puzzle(side: 4), detector: TiltDetector())) {
        self.game = game
    }

    func save(_ game: Game) { hub.saveCompleted(generation: game.generation, failure: nil) }
    // What these tests look at needs no sensor, no socket and no hint.
    func claimSensor(_ claimed: Bool, at now: Double) -> SensorReport { hub.sensor }
    func watchWritable(_ id: Int, _ on: Bool) {}
    func watchReadable(_ id: Int, _ on: Bool) {}
    func requestHint(_ job: HintJob) {}

    func attach() -> (Int, MemoryTransport) {
        let transport = MemoryTransport()
        return (hub.attach(transport)!, transport)
    }

    func send(_ line: String, from id: Int) {
        Array((line + "\n").utf8).withUnsafeBytes { hub.receive($0, from: id) }
    }

    /// One batch: a sample at the clock's time.
    func sample(x: Double = 0, y: Double = 0) {
        let s = heldSamples(x: x, y: y, seconds: 0.01, start: now)
        hub.sensorSamples(s)
    }
}

/// The `pose` stream (docs/protocol.md): only to subscribers, paced, never backlogged.
@Suite struct PoseStreamTests {
    func poses(_ client: MemoryTransport) -> [JSONValue] { client.messages.filter { $0["type"]?.string == "pose" } }

    @Test func subscribersGetTheDetectorsView() throws {
        let h = ClockedHub()
        let (id, client) = h.attach()
        let (_, other) = h.attach()
        h.sample(y: 0)
        h.send(#"{"cmd":"subscribe","pose":true,"id":1}"#, from: id)
        // The reply, then the current pose at once.
        #expect(client.types().suffix(2) == ["reply", "pose"])
        h.now += 0.1
        h.sample(x: -8, y: 3)   // right edge lowered 8°, bottom edge 3°
        let last = try #require(poses(client).last)
        #expect(last["x"]?.double == 8 && last["y"]?.double == -3)
        #expect(last["armed"] == .bool(true))
        #expect(last["trigger"]?.double == 20 && last["release"]?.double == 10)
        #expect(poses(other).isEmpty, "only subscribers")
    }

    @Test func onlyVisibleChangesAreSent() {
        let h = ClockedHub()
        let (id, client) = h.attach()
        h.sample(y: 0)
        h.send(#"{"cmd":"subscribe","pose":true}"#, from: id)
        for step in 1...10 {
            h.now += 0.1
            h.sample(y: Double(step) * 0.1)   // 0.1° at a time: 1° in all
        }
        // 0.5° apart: the first pose, then about 0.5 and 1.0.
        let ys = poses(client).compactMap { $0["y"]?.double }
        #expect(ys.count == 3)
        #expect(ys.first == 0)
        #expect(zip(ys, ys.dropFirst()).allSatisfy { abs($1 - $0) >= 0.5 })
    }

    @Test func atMostThirtyASecond() {
        let h = ClockedHub()
        let (id, client) = h.attach()
        h.sample(y: 0)
        h.send(#"{"cmd":"subscribe","pose":true}"#, from: id)
        client.clear()
        // 100 Hz for one second, out to 15° and back at 0.3° a sample: 50 visible changes.
        for step in 1...100 {
            h.now += 0.01
            h.sample(x: 0.3 * Double(step <= 50 ? step : 100 - step))
        }
        #expect(poses(client).count <= 31)
        #expect(poses(client).count >= 20)
    }

    @Test func aSlowClientGetsOnlyTheLatestPose() throws {
        let h = ClockedHub()
        let (id, client) = h.attach()
        h.sample(y: 0)
        h.send(#"{"cmd":"subscribe","pose":true}"#, from: id)
        client.reading = false
        h.send(#"{"cmd":"state"}"#, from: id)          // something waits in its output
        for step in 1...50 {
            h.now += 0.05
            h.sample(x: Double(step % 12))
        }
        client.reading = true
        client.clear()
        h.hub.writable(id)
        let sent = poses(client)
        #expect(sent.count == 1, "no backlog of poses: only the latest")
        #expect(sent.first?["x"]?.double == -Double(50 % 12))
    }

    @Test func unsubscribingStopsIt() {
        let h = ClockedHub()
        let (id, client) = h.attach()
        h.sample(y: 0)
        h.send(#"{"cmd":"subscribe","pose":true}"#, from: id)
        h.send(#"{"cmd":"subscribe","pose":false}"#, from: id)
        client.clear()
        h.now += 1
        h.sample(x: 5)
        #expect(poses(client).isEmpty)
    }

    @Test func subscribeWithoutAStreamIsABadArgument() {
        let h = ClockedHub()
        let (id, client) = h.attach()
        client.clear()
        h.send(#"{"cmd":"subscribe"}"#, from: id)
        h.send(#"{"cmd":"subscribe","pose":"yes"}"#, from: id)
        #expect(client.messages.map { $0["code"]?.string } == ["bad-argument", "bad-argument"])
    }
}

/// `configure` and `settings` (docs/protocol.md): the player's sensitivity.
@Suite struct SensitivityTests {
    @Test func theGreetingsSettingsComeBeforeItsScreen() {
        let harness = HubHarness()
        let (_, client) = harness.attach()
        let settings = client.messages[client.messages.count - 2]
        #expect(settings["type"]?.string == "settings")
        #expect(settings["trigger"]?.double == 20 && settings["release"]?.double == 10)
    }

    @Test func configureChangesTheDetectorAtOnceAndTellsEveryone() {
        let harness = HubHarness()
        harness.autoSave = false
        let (id, client) = harness.attach()
        let (_, watcher) = harness.attach()
        client.clear()
        watcher.clear()
        harness.send(#"{"cmd":"configure","trigger":25,"release":12,"id":1}"# + "\n", from: id)
        #expect(harness.hub.game.detector.configuration.triggerAngle == 25)
        #expect(harness.hub.game.detector.configuration.releaseAngle == 12)
        #expect(watcher.types() == ["settings"])
        #expect(watcher.messages.first?["trigger"]?.double == 25)
        #expect(client.types() == ["settings"], "the reply waits for the save")
        harness.hub.saveCompleted(generation: harness.hub.game.generation, failure: nil)
        #expect(client.types() == ["settings", "reply"])
    }

    @Test(arguments: [
        #"{"cmd":"configure","trigger":12,"release":12}"#,      // release not below trigger
        #"{"cmd":"configure","trigger":11,"release":10}"#,      // under 2° of hysteresis
        #"{"cmd":"configure","trigger":80,"release":10}"#,      // trigger out of range
        #"{"cmd":"configure","trigger":3}"#,                     // under 5°
        #"{"cmd":"configure","release":0.5}"#,                   // release under 1°
        #"{"cmd":"configure","release":25}"#,                    // above the current trigger
        #"{"cmd":"configure","trigger":"steep"}"#,
        #"{"cmd":"configure"}"#,
    ])
    func badAnglesChangeNothing(line: String) {
        let harness = HubHarness()
        let (id, client) = harness.attach()
        client.clear()
        harness.send(line + "\n", from: id)
        #expect(client.types() == ["error"])
        #expect(client.messages.first?["code"]?.string == "bad-argument")
        #expect(harness.hub.game.detector.configuration.triggerAngle == 20)
        #expect(harness.hub.game.detector.configuration.releaseAngle == 10)
        #expect(harness.hub.game.sensitivity == nil)
    }

    @Test func theChoiceIsSavedAndOutlivesAConfigurationReload() throws {
        let harness = HubHarness()
        let (id, _) = harness.attach()
        harness.send(#"{"cmd":"configure","trigger":28,"release":14}"# + "\n", from: id)
        let saved = SavedGame(game: harness.hub.game, at: 0)
        let text = String(decoding: saved.encoded(), as: UTF8.self)
        #expect(text.contains(#""sensitivity":{"trigger":28.0,"release":14.0}"#))
        let restored = try SavedGame(json: saved.encoded())
        #expect(restored.sensitivity == Sensitivity(trigger: 28, release: 14))
        // The file's defaults change: the player's choice stays.
        var file = TiltDetector.Configuration()
        file.triggerAngle = 22
        harness.hub.reconfigure(file, undoLimit: 1000)
        #expect(harness.hub.game.detector.configuration.triggerAngle == 28)
    }

    @Test func aGameRestoredWithASensitivityUsesIt() {
        let game = Game(puzzle: Puzzle(side: 3), detector: TiltDetector(), sensitivity: Sensitivity(trigger: 14, release: 7))
        #expect(game.detector.configuration.triggerAngle == 14 && game.detector.configuration.releaseAngle == 7)
    }

    @Test func oldSavedFilesWithoutItStillLoad() throws {
        let old = #"{"format":1,"revision":3,"time":1.5,"puzzle":{"size":2,"board":[0,1,3,2],"moves":1,"#
            + #""history":{"limit":10,"undo":"","redo":""}}}"#
        let saved = try SavedGame(json: Array(old.utf8))
        #expect(saved.sensitivity == nil)
    }

    @Test func poseSubscribersHearTheNewAngles() {
        let h = ClockedHub()
        let (id, client) = h.attach()
        h.sample()
        h.send(#"{"cmd":"subscribe","pose":true}"#, from: id)
        client.clear()
        h.now += 0.1
        h.send(#"{"cmd":"configure","trigger":14,"release":7}"#, from: id)
        let pose = client.messages.first { $0["type"]?.string == "pose" }
        #expect(pose?["trigger"]?.double == 14 && pose?["release"]?.double == 7)
    }
}
