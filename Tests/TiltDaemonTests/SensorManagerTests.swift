// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
@testable import TiltDaemon
import TiltDevices
import TiltSystem
import TiltWire
#if canImport(Glibc)
import Glibc
#endif

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
    /// What it waits on while running: the harness gives it a pipe's end.
    var descriptor = FileDescriptor(rawValue: -1)
    /// Bumped by a test that replaces `descriptor` with another of the same number.
    var descriptorSwaps = 0
    var services = 0

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

    var wait: SensorWait { running ? .readable(descriptor) : .idle }

    func service(now: Double) -> [SensorEvent] {
        services += 1
        if unsettledServices > 0 { unsettledServices -= 1 }
        let events = script.isEmpty ? [] : script.removeFirst()
        if events.contains(.removed) { gone = true }
        return events
    }
}

@Suite struct SensorManagerTests {
    /// A manager on a loop that never runs (the tests call it as the loop would), with
    /// the time the test says.
    final class Harness {
        var source: FakeSource? = FakeSource()
        /// Every status the manager said: told on its own account, or as a claim's answer.
        var reports: [SensorStatus] = []
        /// The claims' answers.
        var answers: [SensorStatus] = []
        var samples: [Sample] = []
        /// Reports the manager sent through `onReport`, not as a claim's answer.
        var told: [SensorStatus] = []
        let loop: EventLoop
        let manager: SensorManager
        var now = 1000.0
        /// What every source opened here waits on.
        let pipe: (read: FileDescriptor, write: FileDescriptor)

        var opened = 0

        init(alwaysOn: Bool = false, disabled: Bool = false) throws {
            loop = try EventLoop()
            pipe = try FileDescriptor.pipe()
            var opener: () -> SensorSource? = { nil }
            manager = SensorManager(alwaysOn: alwaysOn, disabled: disabled, loop: loop, log: Logger(level: .error) { _ in }) {
                opener().map { .success($0) }
            }
            opener = { [unowned self] in
                opened += 1
                source?.descriptor = pipe.read
                return source?.gone == true ? nil : source
            }
            manager.onReport = { [unowned self] in
                reports.append($0.status)
                told.append($0.status)
            }
            manager.onSamples = { [unowned self] in samples += $0 }
        }

        deinit {
            loop.close()
            try? pipe.read.close()
            try? pipe.write.close()
        }

        func discover() { manager.discover(now: now) }

        /// Claims as the hub does, keeping the answer as a report when it is a new one.
        func claim(_ claimed: Bool) {
            let before = manager.report
            let answer = manager.claim(claimed, now: now)
            answers.append(answer.status)
            if answer != before { reports.append(answer.status) }
        }

        func deviceRemoved(isOurs: (SensorInfo) -> Bool) { manager.deviceRemoved(isOurs: isOurs, now: now) }

        /// One round of the loop, which a generous limit ends if nothing else does: it
        /// only catches a hang.
        func runRound() throws {
            var limit: Double? = MonotonicClock.now() + 30
            let guardToken = loop.addTimer(deadline: { limit }) { _ in limit = nil }
            defer { loop.remove(guardToken) }
            try loop.runOnce()
        }
    }

    @Test func runsOnlyWhileClaimed() throws {
        let h = try Harness()
        h.discover()
        #expect(h.reports == [.idle])
        h.claim(true)
        #expect(h.source!.starts == 1 && h.manager.wait != .idle)
        h.claim(false)
        #expect(h.source!.stops == 1 && h.manager.wait == .idle)
        #expect(h.reports == [.idle, .active, .idle])
    }

    /// `--source none`: no sensor by choice, which clients can tell from one not found.
    @Test func aDisabledSensorIsNeverLookedFor() throws {
        let h = try Harness(disabled: true)
        h.discover()
        h.claim(true)
        #expect(h.opened == 0)
        #expect(h.reports == [.disabled])
        #expect(h.manager.report.message == "no sensor by choice (source none)")
        #expect(h.manager.wait == .idle)
    }

    @Test func alwaysOnRunsWithoutClients() throws {
        let h = try Harness(alwaysOn: true)
        h.discover()
        #expect(h.source!.starts == 1)
        h.claim(false)
        #expect(h.source!.stops == 0)
    }

    @Test func samplesFlowAndAnEndedReplayStops() throws {
        let h = try Harness()
        h.source!.script = [[.samples([Sample(time: 0, x: 0, y: 0, z: 9.8)]), .ended]]
        h.discover()
        h.claim(true)
        h.manager.service(now: 0)
        #expect(h.samples.count == 1)
        #expect(h.reports.last == .ended)
        #expect(h.manager.wait == .idle)
    }

    /// Losing the sensor is reported, and a sensor that comes back is used again.
    @Test func aRemovedSensorIsReportedAndRediscovered() throws {
        let h = try Harness()
        h.source!.script = [[.removed]]
        h.discover()
        h.claim(true)
        h.manager.service(now: 0)
        #expect(h.reports.last == .absent)
        #expect(h.manager.source == nil)
        let second = FakeSource()
        h.source = second
        h.discover()
        #expect(second.starts == 1, "still claimed: the new sensor starts at once")
        #expect(h.reports.last == .active)
    }

    @Test func udevRemovalOfOurDeviceOnly() throws {
        let h = try Harness()
        h.discover()
        h.claim(true)
        h.deviceRemoved(isOurs: { $0.deviceNode == "/dev/input/event3" })
        #expect(h.manager.source != nil)
        h.source!.gone = true
        h.deviceRemoved(isOurs: { $0.deviceNode == "/dev/input/event9" })
        #expect(h.manager.source == nil && h.reports.last == .absent)
    }

    /// A Joy-Con pair: the half played goes, the other is present, so the daemon says
    /// absent and takes the other at once (docs/sensors.md, "A Joy-Con pair"), whether
    /// udev or a failed read tells first.
    @Test(arguments: [true, false])
    func losingOneHalfOfAPairHandsOverToTheOther(byUdev: Bool) throws {
        let h = try Harness()
        let left = h.source!
        left.info.name = "Nintendo Switch Left Joy-Con IMU"
        let right = FakeSource()
        right.info = SensorInfo(kind: .evdev, name: "Nintendo Switch Right Joy-Con IMU", sysfsPath: "/sys/right",
                                deviceNode: "/dev/input/event12")
        h.discover()
        h.claim(true)
        #expect(h.manager.source?.info.name == left.info.name && h.reports == [.idle, .active])
        // The left goes; discovery now finds the right.
        h.source = right
        if byUdev {
            left.gone = true
            h.deviceRemoved(isOurs: { $0.deviceNode == "/dev/input/event9" })
        } else {
            left.script = [[.removed]]
            h.manager.service(now: 0)
        }
        #expect(h.reports == [.idle, .active, .absent, .active])
        #expect(h.manager.source?.info.deviceNode == "/dev/input/event12")
        #expect(right.starts == 1 && left.stops == 1)
    }

    @Test func aSensorThatCannotStartIsAnError() throws {
        let h = try Harness()
        h.source!.failStart = true
        h.discover()
        h.claim(true)
        #expect(h.reports.last == .error)
        #expect(h.manager.source == nil)
    }

    /// Another program holds the sensor: `busy`, not an error nor lost; tried again on a
    /// deadline only while a client is attached; `active` once it is free.
    @Test func aHeldSensorIsBusyAndTakenWhenFree() throws {
        let h = try Harness()
        h.source!.busyStarts = 2
        h.discover()
        #expect(h.reports == [.idle])
        #expect(h.manager.wait == .idle)
        h.claim(true)
        #expect(h.reports == [.idle, .busy])
        #expect(h.manager.report.message?.contains("in use by another program (holder)") == true)
        #expect(h.manager.source != nil, "the source is kept")
        let retry = try #require(h.manager.wait.deadline)
        #expect(retry == h.now + SensorManager.busyRetry, "tried again a retry's time after the claim")
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
        let h = try Harness()
        h.source!.busyStarts = 1
        h.source!.settlingServices = 2
        h.discover()
        h.claim(true)
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

    @Test func noRetriesWithoutAClient() throws {
        let h = try Harness()
        h.source!.busyStarts = 5
        h.discover()
        h.claim(true)
        #expect(h.manager.wait.deadline != nil)
        h.claim(false)
        #expect(h.manager.wait == .idle, "no wake-ups while nobody is attached")
        #expect(h.reports.last == .idle)
    }

    /// A held sensor that goes away is absent, with no retry left behind.
    @Test func aHeldSensorThatGoesAwayIsAbsent() throws {
        let h = try Harness()
        h.source!.busyStarts = 5
        h.discover()
        h.claim(true)
        #expect(h.reports.last == .busy)
        h.source!.gone = true
        h.deviceRemoved(isOurs: { _ in true })
        #expect(h.reports.last == .absent)
        #expect(h.manager.wait == .idle)
    }

    /// A running source that another program takes over says so; the manager retries.
    @Test func aSensorTakenWhileRunningIsBusy() throws {
        let h = try Harness()
        h.source!.script = [[.busy("in use by another program")]]
        h.discover()
        h.claim(true)
        h.manager.service(now: 0)
        #expect(h.reports.last == .busy)
        #expect(h.manager.source != nil)
        #expect(h.manager.wait.deadline != nil)
    }

    /// The rate reported is the one the samples come at, once measured.
    @Test func theMeasuredRateIsReported() throws {
        let h = try Harness()
        h.source!.info.samplingRate = 100
        var rates: [Double?] = []
        h.manager.onReport = { rates.append($0.rate) }
        // 10.5 samples a second for 3 s, in batches.
        var batches: [[SensorEvent]] = []
        for second in 0..<3 {
            batches.append([.samples((0..<21).map { Sample(time: Double(second) * 2 + Double($0) / 10.5, x: 0, y: 0, z: 9.8) })])
        }
        h.source!.script = batches
        h.discover()
        #expect(h.manager.claim(true, now: h.now).rate == 100, "what the driver was asked for, until measured")
        for _ in batches { h.manager.service(now: 0) }
        #expect(rates.last == 10.5)
        #expect(h.manager.report.status == .active)
    }

    @Test func aRateCloseToTheReportedOneSendsNothing() throws {
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

    /// The claim is answered, not told back: the hub that asked hears nothing meanwhile.
    @Test func aClaimIsAnsweredNotToldBack() throws {
        let h = try Harness()
        h.discover()
        #expect(h.told == [.idle])
        h.claim(true)
        h.claim(false)
        #expect(h.answers == [.active, .idle])
        #expect(h.told == [.idle], "nothing through onReport while a claim is answered")
        // What happens on the sensor's own account is told.
        h.claim(true)
        h.source!.script = [[.ended]]
        h.manager.service(now: h.now)
        #expect(h.told == [.idle, .ended])
    }

    /// The manager watches the running source's descriptor on the loop itself.
    @Test func theRunningSourcesDescriptorIsWatched() throws {
        let h = try Harness()
        h.discover()
        h.claim(true)
        try h.pipe.write.writeAll("x")
        try h.runRound()
        #expect(h.source!.services == 1)
        h.claim(false)
        #expect(h.manager.wait == .idle)
        // Something else wakes the loop: the pipe, still readable, is no longer watched.
        var due: Double? = 0
        h.loop.addTimer(deadline: { due }) { _ in due = nil }
        try h.runRound()
        #expect(h.source!.services == 1, "a stopped source is not watched")
    }

    /// A held sensor's retry is a deadline of the loop's, registered by the manager.
    @Test func aHeldSensorIsTriedAgainOnTheLoopsTimer() throws {
        let h = try Harness()
        h.source!.busyStarts = 1
        h.discover()
        // A deadline already passed: the loop's next round tries again.
        h.now = MonotonicClock.now() - SensorManager.busyRetry - 1
        h.claim(true)
        #expect(h.reports.last == .busy)
        try h.runRound()
        #expect(h.source!.starts == 1)
        #expect(h.reports.last == .active)
    }

    /// The first client's claim starts the sensor within `attach`: the answer is in the
    /// greeting, and the sensor calls nothing back into the hub meanwhile.
    @Test func theFirstClientsGreetingSaysTheClaimsAnswer() throws {
        let h = try Harness()
        h.discover()
        let hub = HubHarness()
        var calledBack = 0
        h.manager.onReport = { [unowned hub] report in
            calledBack += 1
            hub.hub.sensorChanged(report)
        }
        hub.answerClaim = { [unowned h] claimed, now in h.manager.claim(claimed, now: now) }
        let (id, client) = hub.attach()
        #expect(calledBack == 0)
        #expect(client.types() == ["hello", "state", "sensor", "settings", "screen"])
        #expect(client.messages[2]["status"]?.string == "active")
        hub.hub.detach(id, reason: "test")
        #expect(calledBack == 0)
        #expect(hub.hub.sensor.status == .idle && h.source!.stops == 1)
    }

    /// A source that replaces its descriptor by one with the same number (an IIO buffer
    /// given up for polling) is watched again, and an event that waited for the old one in
    /// that round is dropped with the old one's token: it never reaches the new one.
    @Test func anEventForAReplacedDescriptorNeverReachesTheNewOne() throws {
        let h = try Harness()
        h.discover()
        h.claim(true)
        let source = h.source!
        let number = source.descriptor.rawValue
        let first = try FileDescriptor.pipe(), replacement = try FileDescriptor.pipe()
        defer { [first.read, first.write, replacement.read, replacement.write].forEach { try? $0.close() } }
        // Earlier in the round, something services the source, which replaces its descriptor.
        var firstToken: EventLoop.Token?
        firstToken = try h.loop.watch(first.read, .readable) { _, now in
            h.loop.remove(firstToken!)
            // Closes the old end and gives its number to the replacement at once.
            #expect(dup2(replacement.read.rawValue, number) == number)
            source.descriptorSwaps += 1
            h.manager.service(now: now)
        }
        try first.write.writeAll("x")
        try h.pipe.write.writeAll("x")
        try h.runRound()
        #expect(source.services == 1, "the old descriptor's event went with its token")
        try replacement.write.writeAll("y")
        try h.runRound()
        #expect(source.services == 2, "the new descriptor is watched")
    }

    @Test func noSensorIsAbsent() throws {
        let h = try Harness()
        h.source = nil
        h.discover()
        h.claim(true)
        #expect(h.reports == [.absent], "discovery reports that it found nothing, once")
        #expect(h.manager.report.message == "no accelerometer found")
    }
}

/// `sample-rate` (docs/performance.md): faster while a client plays, restored after.
@Suite struct PlayRateTests {
    @Test func aClaimAsksForThePlayRate() throws {
        let h = try SensorManagerTests.Harness()
        h.discover()
        h.claim(true)
        #expect(h.source!.rates == [SamplingRate.playing])
    }

    @Test func alwaysOnStartsAgainFasterForAClientAndSlowerAfter() throws {
        let h = try SensorManagerTests.Harness(alwaysOn: true)
        h.discover()
        #expect(h.source!.rates == [SamplingRate.minimum])
        h.claim(true)
        #expect(h.source!.rates == [SamplingRate.minimum, SamplingRate.playing])
        #expect(h.source!.stops == 1, "stopped first, which puts the driver's rate back")
        h.claim(false)
        #expect(h.source!.rates == [SamplingRate.minimum, SamplingRate.playing, SamplingRate.minimum])
        #expect(h.reports.last == .active)
    }
}
