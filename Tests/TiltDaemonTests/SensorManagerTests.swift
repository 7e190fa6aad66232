import Testing
import TiltCore
@testable import TiltDaemon
import TiltDevices
import TiltSystem
import TiltWire

/// A source that records what the manager asks of it and replays scripted events.
final class FakeSource: SensorSource {
    var info = SensorInfo(kind: .evdev, name: "fake", sysfsPath: "/sys/fake", deviceNode: "/dev/input/event9")
    var starts = 0
    var stops = 0
    var running = false
    var failStart = false
    var script: [[SensorEvent]] = []
    /// The rate asked for at each start.
    var rates: [Double] = []
    private var rate = 0.0

    func setMinimumRate(_ hertz: Double) { rate = hertz }

    func start() throws(SensorError) {
        if failStart { throw SensorError("permission denied") }
        starts += 1
        rates.append(rate)
        running = true
    }

    func stop() {
        if running { stops += 1 }
        running = false
    }

    var wait: SensorWait { running ? .readable(FileDescriptor(rawValue: 99)) : .idle }

    func service(now: Double) -> [SensorEvent] { script.isEmpty ? [] : script.removeFirst() }
}

@Suite struct SensorManagerTests {
    final class Harness {
        var source: FakeSource? = FakeSource()
        var reports: [SensorStatus] = []
        var samples: [Sample] = []
        let manager: SensorManager

        var opened = 0

        init(alwaysOn: Bool = false, disabled: Bool = false) {
            var opener: () -> SensorSource? = { nil }
            manager = SensorManager(alwaysOn: alwaysOn, disabled: disabled, log: Logger(level: .error) { _ in }) {
                opener().map { .success($0) }
            }
            opener = { [unowned self] in
                opened += 1
                return source
            }
            manager.onReport = { [unowned self] in reports.append($0.status) }
            manager.onSamples = { [unowned self] in samples += $0 }
        }
    }

    @Test func runsOnlyWhileClaimed() {
        let h = Harness()
        h.manager.discover()
        #expect(h.reports == [.idle])
        h.manager.claim(true)
        #expect(h.source!.starts == 1 && h.manager.wait != .idle)
        h.manager.claim(false)
        #expect(h.source!.stops == 1 && h.manager.wait == .idle)
        #expect(h.reports == [.idle, .active, .idle])
    }

    /// `--source none`: no sensor by choice, which clients can tell from one not found.
    @Test func aDisabledSensorIsNeverLookedFor() {
        let h = Harness(disabled: true)
        h.manager.discover()
        h.manager.claim(true)
        #expect(h.opened == 0)
        #expect(h.reports == [.disabled])
        #expect(h.manager.report.message == "no sensor by choice (source none)")
        #expect(h.manager.wait == .idle)
    }

    @Test func alwaysOnRunsWithoutClients() {
        let h = Harness(alwaysOn: true)
        h.manager.discover()
        #expect(h.source!.starts == 1)
        h.manager.claim(false)
        #expect(h.source!.stops == 0)
    }

    @Test func samplesFlowAndAnEndedReplayStops() {
        let h = Harness()
        h.source!.script = [[.samples([Sample(time: 0, x: 0, y: 0, z: 9.8)]), .ended]]
        h.manager.discover()
        h.manager.claim(true)
        h.manager.service(now: 0)
        #expect(h.samples.count == 1)
        #expect(h.reports.last == .ended)
        #expect(h.manager.wait == .idle)
    }

    /// Losing the sensor is reported, and a sensor that comes back is used again.
    @Test func aRemovedSensorIsReportedAndRediscovered() {
        let h = Harness()
        h.source!.script = [[.removed]]
        h.manager.discover()
        h.manager.claim(true)
        h.manager.service(now: 0)
        #expect(h.reports.last == .absent)
        #expect(h.manager.source == nil)
        let second = FakeSource()
        h.source = second
        h.manager.discover()
        #expect(second.starts == 1, "still claimed: the new sensor starts at once")
        #expect(h.reports.last == .active)
    }

    @Test func udevRemovalOfOurDeviceOnly() {
        let h = Harness()
        h.manager.discover()
        h.manager.claim(true)
        h.manager.deviceRemoved(isOurs: { $0.deviceNode == "/dev/input/event3" })
        #expect(h.manager.source != nil)
        h.manager.deviceRemoved(isOurs: { $0.deviceNode == "/dev/input/event9" })
        #expect(h.manager.source == nil && h.reports.last == .absent)
    }

    @Test func aSensorThatCannotStartIsAnError() {
        let h = Harness()
        h.source!.failStart = true
        h.manager.discover()
        h.manager.claim(true)
        #expect(h.reports.last == .error)
        #expect(h.manager.source == nil)
    }

    @Test func noSensorIsAbsent() {
        let h = Harness()
        h.source = nil
        h.manager.discover()
        h.manager.claim(true)
        #expect(h.reports == [.absent], "discovery reports that it found nothing, once")
        #expect(h.manager.report.message == "no accelerometer found")
    }
}

/// `sample-rate` (docs/performance.md): faster while a client plays, restored after.
@Suite struct PlayRateTests {
    @Test func aClaimAsksForThePlayRate() {
        let h = SensorManagerTests.Harness()
        h.manager.discover()
        h.manager.claim(true)
        #expect(h.source!.rates == [SamplingRate.playing])
    }

    @Test func alwaysOnStartsAgainFasterForAClientAndSlowerAfter() {
        let h = SensorManagerTests.Harness(alwaysOn: true)
        h.manager.discover()
        #expect(h.source!.rates == [SamplingRate.minimum])
        h.manager.claim(true)
        #expect(h.source!.rates == [SamplingRate.minimum, SamplingRate.playing])
        #expect(h.source!.stops == 1, "stopped first, which puts the driver's rate back")
        h.manager.claim(false)
        #expect(h.source!.rates == [SamplingRate.minimum, SamplingRate.playing, SamplingRate.minimum])
        #expect(h.reports.last == .active)
    }
}
