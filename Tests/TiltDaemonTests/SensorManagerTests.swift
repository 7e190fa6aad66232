// SPDX-License-Identifier: GPL-3.0-or-later
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
    /// Starts fail as busy while this many remain.
    var busyStarts = 0
    /// Removed (by its script or by the test): discovery no longer finds it.
    var gone = false
    var script: [[SensorEvent]] = []
    /// Services after a start before the source knows how it reads (`isSettled`).
    var settlingServices = 0
    private var unsettledServices = 0
    var isSettled: Bool { unsettledServices == 0 }
    /// The rate asked for at each start.
    var rates: [Double] = []
    private var rate = 0.0

    func setMinimumRate(_ hertz: Double) { rate = hertz }

    func start() throws(SensorError) {
        if failStart { throw SensorError("permission denied") }
        if busyStarts > 0 {
            busyStarts -= 1
            throw SensorError("the accelerometer is in use by another program (holder); tilting resumes when it is free",
                              kind: .busy)
        }
        starts += 1
        rates.append(rate)
        running = true
        unsettledServices = settlingServices
    }

    func stop() {
        if running { stops += 1 }
        running = false
    }

    var wait: SensorWait { running ? .readable(FileDescriptor(rawValue: 99)) : .idle }

    func service(now: Double) -> [SensorEvent] {
        if unsettledServices > 0 { unsettledServices -= 1 }
        let events = script.isEmpty ? [] : script.removeFirst()
        if events.contains(.removed) { gone = true }
        return events
    }
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
                return source?.gone == true ? nil : source
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
        h.source!.gone = true
        h.manager.deviceRemoved(isOurs: { $0.deviceNode == "/dev/input/event9" })
        #expect(h.manager.source == nil && h.reports.last == .absent)
    }

    /// A Joy-Con pair: the half played goes, the other is present, so the daemon says
    /// absent and takes the other at once (docs/sensors.md, "A Joy-Con pair"), whether
    /// udev or a failed read tells first.
    @Test(arguments: [true, false])
    func losingOneHalfOfAPairHandsOverToTheOther(byUdev: Bool) {
        let h = Harness()
        let left = h.source!
        left.info.name = "Nintendo Switch Left Joy-Con IMU"
        let right = FakeSource()
        right.info = SensorInfo(kind: .evdev, name: "Nintendo Switch Right Joy-Con IMU", sysfsPath: "/sys/right",
                                deviceNode: "/dev/input/event12")
        h.manager.discover()
        h.manager.claim(true)
        #expect(h.manager.source?.info.name == left.info.name && h.reports == [.idle, .active])
        // The left goes; discovery now finds the right.
        h.source = right
        if byUdev {
            left.gone = true
            h.manager.deviceRemoved(isOurs: { $0.deviceNode == "/dev/input/event9" })
        } else {
            left.script = [[.removed]]
            h.manager.service(now: 0)
        }
        #expect(h.reports == [.idle, .active, .absent, .active])
        #expect(h.manager.source?.info.deviceNode == "/dev/input/event12")
        #expect(right.starts == 1 && left.stops == 1)
    }

    @Test func aSensorThatCannotStartIsAnError() {
        let h = Harness()
        h.source!.failStart = true
        h.manager.discover()
        h.manager.claim(true)
        #expect(h.reports.last == .error)
        #expect(h.manager.source == nil)
    }

    /// Another program holds the sensor: `busy`, not an error nor lost; tried again on a
    /// deadline only while a client is attached; `active` once it is free.
    @Test func aHeldSensorIsBusyAndTakenWhenFree() throws {
        let h = Harness()
        h.source!.busyStarts = 2
        h.manager.discover()
        #expect(h.reports == [.idle])
        #expect(h.manager.wait == .idle)
        let before = MonotonicClock.now()
        h.manager.claim(true)
        #expect(h.reports == [.idle, .busy])
        #expect(h.manager.report.message?.contains("in use by another program (holder)") == true)
        #expect(h.manager.source != nil, "the source is kept")
        let retry = try #require(h.manager.wait.deadline)
        #expect(retry >= before + SensorManager.busyRetry && retry <= MonotonicClock.now() + SensorManager.busyRetry)
        h.manager.service(now: retry - 1)
        #expect(h.source!.starts == 0, "not before the deadline")
        h.manager.service(now: retry)
        #expect(h.reports == [.idle, .busy], "still busy: told once")
        let second = try #require(h.manager.wait.deadline)
        h.manager.service(now: second)
        #expect(h.source!.starts == 1)
        #expect(h.reports == [.idle, .busy, .active])
        #expect(h.manager.wait.descriptor != nil)
    }

    /// A source that finds out how to read after its start (an IIO buffer watched for
    /// another reader) is `active` only once it knows; a held sensor stays `busy` until then.
    @Test func activeWaitsUntilTheSourceHasSettled() throws {
        let h = Harness()
        h.source!.busyStarts = 1
        h.source!.settlingServices = 2
        h.manager.discover()
        h.manager.claim(true)
        #expect(h.reports == [.idle, .busy])
        let retry = try #require(h.manager.wait.deadline)
        h.manager.service(now: retry)
        #expect(h.source!.starts == 1)
        #expect(h.reports == [.idle, .busy], "started, still finding out")
        h.manager.service(now: retry + 0.5)
        #expect(h.reports == [.idle, .busy])
        h.manager.service(now: retry + 1)
        #expect(h.reports == [.idle, .busy, .active])
        h.manager.service(now: retry + 1.5)
        #expect(h.reports == [.idle, .busy, .active], "said once")
    }

    @Test func noRetriesWithoutAClient() {
        let h = Harness()
        h.source!.busyStarts = 5
        h.manager.discover()
        h.manager.claim(true)
        #expect(h.manager.wait.deadline != nil)
        h.manager.claim(false)
        #expect(h.manager.wait == .idle, "no wake-ups while nobody is attached")
        #expect(h.reports.last == .idle)
    }

    /// A held sensor that goes away is absent, with no retry left behind.
    @Test func aHeldSensorThatGoesAwayIsAbsent() {
        let h = Harness()
        h.source!.busyStarts = 5
        h.manager.discover()
        h.manager.claim(true)
        #expect(h.reports.last == .busy)
        h.source!.gone = true
        h.manager.deviceRemoved(isOurs: { _ in true })
        #expect(h.reports.last == .absent)
        #expect(h.manager.wait == .idle)
    }

    /// A running source that another program takes over says so; the manager retries.
    @Test func aSensorTakenWhileRunningIsBusy() {
        let h = Harness()
        h.source!.script = [[.busy("in use by another program")]]
        h.manager.discover()
        h.manager.claim(true)
        h.manager.service(now: 0)
        #expect(h.reports.last == .busy)
        #expect(h.manager.source != nil)
        #expect(h.manager.wait.deadline != nil)
    }

    /// The rate reported is the one the samples come at, once measured.
    @Test func theMeasuredRateIsReported() {
        let h = Harness()
        h.source!.info.samplingRate = 100
        var rates: [Double?] = []
        h.manager.onReport = { rates.append($0.rate) }
        // 10.5 samples a second for 3 s, in batches.
        var batches: [[SensorEvent]] = []
        for second in 0..<3 {
            batches.append([.samples((0..<21).map { Sample(time: Double(second) * 2 + Double($0) / 10.5, x: 0, y: 0, z: 9.8) })])
        }
        h.source!.script = batches
        h.manager.discover()
        h.manager.claim(true)
        for _ in batches { h.manager.service(now: 0) }
        #expect(rates.first == 100)
        #expect(rates.last == 10.5)
        #expect(h.manager.report.status == .active)
    }

    @Test func aRateCloseToTheReportedOneSendsNothing() {
        var meter = RateMeter()
        let samples = (0..<1000).map { Sample(time: Double($0) / 98, x: 0, y: 0, z: 9.8) }
        #expect(meter.add(samples, reported: 100) == nil)
        #expect(meter.measured == nil)
        var slow = RateMeter()
        #expect(slow.add((0..<300).map { Sample(time: Double($0) / 50, x: 0, y: 0, z: 9.8) }, reported: 100) == 50)
        // A stall is no slow sensor: the window starts again after it.
        var stalled = RateMeter()
        let times = (0..<150).map { Double($0) / 100 } + (0..<400).map { 5 + Double($0) / 100 }
        #expect(stalled.add(times.map { Sample(time: $0, x: 0, y: 0, z: 9.8) }, reported: 100) == nil)
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
