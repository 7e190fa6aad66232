// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltDevices
import TiltSystem
import TiltWire

/// Runs the sensor the way iio-sensor-proxy claims it, but event-driven: the
/// source starts when the first client attaches and stops when the last leaves
/// (unless always-on). Losing the sensor never stops the daemon: clients are told,
/// and it resumes when one comes back. A sensor another program holds is `busy`:
/// while a client is attached it is tried again every `busyRetry` seconds (a
/// deadline of the loop's; nothing wakes the daemon while nobody is attached).
/// Once samples flow, the rate reported is the one measured (`RateMeter`).
///
/// Like `ClientSockets`, it is a source of the loop that registers its own wait: the
/// source's descriptor (watched again whenever the source replaces it) and a timer for
/// its deadline. It never reads the clock: every call is handed `now`.
final class SensorManager {
    /// Seconds between tries of a sensor another program holds.
    static let busyRetry = 3.0

    /// Finds and opens a source; nil when none is present.
    typealias Opener = () -> Result<SensorSource, SensorError>?

    private let open: Opener
    private let loop: EventLoop
    private let alwaysOn: Bool
    private let disabled: Bool
    /// The sampling rate to ask for while a client plays (`sample-rate`); with no client
    /// (always-on) the source asks for `SamplingRate.minimum`.
    private let playRate: Double
    /// The rate asked of the running source.
    private var askedRate: Double?
    private let log: Logger
    private(set) var source: SensorSource?
    private(set) var report = SensorReport(status: .absent, message: "no sensor found")
    private var claimed = false
    private var running = false
    private var ended = false
    /// The source is held by another program: when to try it again (only while claimed).
    private var busyMessage: String?
    /// `active` was said for the running source.
    private var announced = false
    private var retryAt: Double?
    private var meter = RateMeter()
    /// The descriptor the loop watches for the running source, and the source's count of
    /// descriptor swaps when it was watched: the same number may be a new descriptor.
    private var watched: (descriptor: FileDescriptor?, swaps: Int) = (nil, 0)
    private var watchToken: EventLoop.Token?
    private var deadlineToken: EventLoop.Token?
    /// Set while a claim is answered: its report is the answer, not a call into the hub.
    private var answeringClaim = false

    /// The samples a serviced source delivered, in order.
    var onSamples: ([Sample]) -> Void = { _ in }
    /// The report changed on the sensor's own account (serviced, discovered, removed);
    /// what a claim changes is its answer instead.
    var onReport: (SensorReport) -> Void = { _ in }
    /// A new source was opened (to apply its mount matrix).
    var onSource: (SensorInfo) -> Void = { _ in }

    /// `disabled`: the daemon runs without a sensor by choice (`--source none`).
    init(alwaysOn: Bool, playRate: Double = SamplingRate.playing, disabled: Bool = false, loop: EventLoop,
         log: Logger, open: @escaping Opener) {
        self.alwaysOn = alwaysOn
        self.disabled = disabled
        self.playRate = playRate
        self.loop = loop
        self.log = log
        self.open = open
        // Asked afresh each round: a replay's deadline moves with every batch.
        deadlineToken = loop.addTimer(deadline: { [weak self] in self?.wait.deadline }) { [weak self] now in
            self?.service(now: now)
        }
    }

    private var wanted: Bool { claimed || alwaysOn }

    var wait: SensorWait {
        if running { return source?.wait ?? .idle }
        return retryAt.map(SensorWait.deadline) ?? .idle
    }

    /// Looks for a source now (at start and when udev reports a new device).
    func discover(now: Double) {
        defer { watchWait() }
        guard source == nil else { return }
        if disabled {
            return setReport(SensorReport(status: .disabled, message: "no sensor by choice (source none)"))
        }
        switch open() {
        case nil:
            setReport(SensorReport(status: .absent, message: "no accelerometer found"))
        case .failure(let error)?:
            log.warning("sensor: \(error)")
            setReport(SensorReport(status: .error, message: error.message))
        case .success(let opened)?:
            adopt(opened, now: now)
        }
    }

    private func adopt(_ opened: SensorSource, now: Double) {
        source = opened
        ended = false
        log.notice("sensor: using \(opened.info.kind.rawValue) \(opened.info.name)"
                   + (opened.info.deviceNode.map { " (\($0))" } ?? ""))
        onSource(opened.info)
        update(now: now)
    }

    /// Ours went away: another accelerometer present now (the other Joy-Con of a pair)
    /// is taken at once, after the `absent` that says ours is gone (docs/sensors.md,
    /// "A Joy-Con pair"). None: the absent report stands, and hotplug brings the next.
    private func handOver(now: Double) {
        guard !disabled, case .success(let next)? = open() else { return }
        adopt(next, now: now)
    }

    /// Clients attached (true) or all gone (false); answers with the report once the
    /// claim took effect, so the first client's greeting already says whether the
    /// sensor started, and the report is not also told back to the hub that asked.
    /// (A claim that opens a new source still calls `onSource` for its mount matrix.)
    func claim(_ claimed: Bool, now: Double) -> SensorReport {
        answeringClaim = true
        defer {
            answeringClaim = false
            watchWait()
        }
        self.claimed = claimed
        // A sensor that failed to start, or was lost, gets another chance with each
        // new claim (it may have been busy, or its permissions arrived late).
        if claimed, source == nil { discover(now: now) }
        update(now: now)
        return report
    }

    /// A device went away (udev remove); `isOurs` tells whether it is the one in use.
    func deviceRemoved(isOurs: (SensorInfo) -> Bool, now: Double) {
        defer { watchWait() }
        guard let info = source?.info, isOurs(info) else { return }
        lose(reason: "removed")
        handOver(now: now)
    }

    private var wantedRate: Double { claimed ? playRate : SamplingRate.minimum }

    private func update(now: Double) {
        guard let source else { return }
        if !claimed { retryAt = nil }
        if running, let askedRate, askedRate != wantedRate, wanted {
            // Always-on and a client came or went: start again at the rate for it; `stop`
            // puts the previous rate back first.
            source.stop()
            running = false
        }
        if wanted && !running && !ended {
            do throws(SensorError) {
                source.setMinimumRate(wantedRate)
                askedRate = wantedRate
                retryAt = nil
                try source.start()
                running = true
                meter = RateMeter()
                announced = false
                announceWhenSettled(source)
            } catch where error.kind == .busy {
                markBusyAndRetryLater(source, error.message, now: now)
            } catch {
                log.warning("sensor: cannot start \(source.info.name): \(error)")
                self.source = nil
                setReport(report(for: source.info, status: .error, message: error.message))
            }
        } else if !wanted && running {
            source.stop()
            running = false
            setReport(report(for: source.info, status: .idle))
        } else if !running && !ended && (busyMessage == nil || !wanted) {
            setReport(report(for: source.info, status: .idle))
        }
    }

    /// `active` once the started source knows how it reads the device (until then the
    /// clients keep the status they had: `busy` stays `busy` while the source checks).
    private func announceWhenSettled(_ source: SensorSource) {
        guard running, !announced, source.isSettled else { return }
        announced = true
        if busyMessage != nil { log.notice("sensor: \(source.info.name) is free again") }
        busyMessage = nil
        setReport(report(for: source.info, status: .active))
    }

    /// Another program holds the sensor: said once in the log, told to the clients, and
    /// tried again later while a client wants it.
    private func markBusyAndRetryLater(_ source: SensorSource, _ message: String, now: Double) {
        running = false
        if busyMessage != message { log.notice("sensor: \(source.info.name): \(message)") }
        busyMessage = message
        retryAt = claimed ? now + Self.busyRetry : nil
        setReport(report(for: source.info, status: .busy, message: message))
    }

    /// The loop saw the source's descriptor readable or its deadline pass.
    func service(now: Double) {
        defer { watchWait() }
        if !running, let at = retryAt, at <= now {
            retryAt = nil
            update(now: now)
            return
        }
        guard running, let source else { return }
        for event in source.service(now: now) {
            switch event {
            case .samples(let samples):
                onSamples(samples)
                // A replay's pace is the trace's (or as fast as it goes): nothing to measure.
                if source.info.kind != .replay, let measured = meter.add(samples, reported: report.rate) {
                    log.info("sensor: \(source.info.name) delivers \(measured) samples/s")
                    setReport(report(for: source.info, status: .active))
                }
            case .warning(let message):
                log.warning("sensor: \(message)")
            case .ended:
                running = false
                ended = true
                log.notice("sensor: \(source.info.name) ended")
                setReport(report(for: source.info, status: .ended))
            case .removed:
                lose(reason: "removed")
                handOver(now: now)
                return
            case .failed(let message):
                lose(reason: message)
                return
            case .busy(let message):
                markBusyAndRetryLater(source, message, now: now)
                return
            }
        }
        announceWhenSettled(source)
    }

    /// Drops the source; only udev (or the next claim) brings one back.
    private func lose(reason: String) {
        guard let lost = source else { return }
        lost.stop()
        running = false
        source = nil
        busyMessage = nil
        retryAt = nil
        log.warning("sensor: lost \(lost.info.name): \(reason)")
        setReport(SensorReport(status: .absent, kind: lost.info.kind.rawValue, name: lost.info.name,
                               message: "sensor lost: \(reason); waiting for it to come back"))
    }

    /// Stops the source and leaves the loop.
    func shutdown() {
        source?.stop()
        running = false
        source = nil
        watchWait()
        if let deadlineToken { loop.remove(deadlineToken) }
        deadlineToken = nil
    }

    /// Watches the running source's descriptor, again whenever the source replaced it: the
    /// old one's token goes, so an event still waiting for it is dropped with it.
    private func watchWait() {
        let current = (descriptor: wait.descriptor, swaps: running ? source?.descriptorSwaps ?? 0 : 0)
        guard current != watched else { return }
        if let watchToken { loop.remove(watchToken) }
        watchToken = nil
        // Kept even when watching fails: said once, not again at every call.
        watched = current
        guard let descriptor = current.descriptor else { return }
        do throws(Errno) {
            watchToken = try loop.watch(descriptor, .readable) { [weak self] _, now in self?.service(now: now) }
        } catch {
            log.error("cannot watch the sensor: \(error)")
        }
    }

    private func report(for info: SensorInfo, status: SensorStatus, message: String? = nil) -> SensorReport {
        let rate = status == .active ? meter.measured ?? info.samplingRate : info.samplingRate
        return SensorReport(status: status, kind: info.kind.rawValue, name: info.name,
                            device: info.deviceNode ?? info.sysfsPath, rate: rate, message: message)
    }

    private func setReport(_ new: SensorReport) {
        guard new != report else { return }
        report = new
        if !answeringClaim { onReport(new) }
    }
}
