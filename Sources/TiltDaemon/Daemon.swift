import TiltCommandLine
import TiltCore
import TiltDevices
import TiltSystem
import TiltWire
#if canImport(Glibc)
import Glibc
#endif

/// `tiltpuzzled`: wires sensor → detector → puzzle → clients on one event loop.
public final class Daemon {
    private let options: DaemonOptions
    private var configuration: Configuration
    private let log: Logger
    private let loop: EventLoop
    private let store: StateStore
    /// Held for the daemon's life: no second daemon plays from the same directory.
    private let stateLock: StateDirectoryLock
    private let persister: Persister
    private let hints: HintWorker
    private let hub: Hub
    private let sensors: SensorManager
    private var listeners: [FileDescriptor] = []
    /// The socket file we created (and remove at exit); nil under socket activation.
    private var ownedSocketPath: String?
    private var signals: SignalDescriptor?
    private var sensorDescriptor: FileDescriptor?
    private var sensorGeneration = 0
    private var hotplugMonitor: HotplugMonitor?
    private var watchdogInterval: Double?
    private var nextWatchdog = Double.infinity
    private var stopping = false
    /// Set when the daemon runs inside another program (the demo): it stops when this
    /// is signalled, and leaves the process's signals, systemd and configuration alone.
    private let embeddedStop: WakeupDescriptor?

    public struct StartError: Error, CustomStringConvertible {
        public var message: String
        /// What `tiltpuzzled` exits with (docs/tiltpuzzled.8.md, EXIT STATUS).
        public var exitStatus: Int32 = 1
        public var description: String { message }
    }

    /// `embeddedStop`: run inside another program (see `EmbeddedDaemon`), with the
    /// default configuration, until the descriptor is signalled.
    public init(options: DaemonOptions, log: Logger, embeddedStop: WakeupDescriptor? = nil) throws(StartError) {
        self.options = options
        self.log = log
        self.embeddedStop = embeddedStop
        configuration = embeddedStop == nil ? try Self.loadConfiguration(options) : Configuration()
        if options.alwaysOn { configuration.alwaysOn = true }
        if let source = options.source { configuration.source = source }

        store = StateStore(directory: options.stateDirectory)
        stateLock = try Self.claimStateDirectory(store)
        do throws(Errno) {
            loop = try EventLoop()
            persister = try Persister(store: store)
            hints = try HintWorker(cache: PatternDatabaseCache(directory: options.stateDirectory), log: log)
        } catch {
            throw StartError(message: "cannot prepare \(options.stateDirectory): \(error)")
        }
        let game = Self.restoreGame(store: store, configuration: configuration, log: log)
        hub = Hub(game: game, version: DaemonInfo.version, limits: configuration.limits, log: log,
                  clock: MonotonicClock.now)
        let source = configuration.source
        let speed = options.replaySpeed
        sensors = SensorManager(alwaysOn: configuration.alwaysOn, playRate: configuration.sampleRate,
                                disabled: source == "none", log: log) {
            Self.openSource(source, speed: speed)
        }
        try openListeners()
        wire()
    }

    // MARK: Start-up

    /// Makes the state directory if needed, proves it can be written and locks it,
    /// before the game is read: a daemon that could not save, or a second daemon on
    /// the same directory, stops at once instead of losing games (docs/tiltpuzzled.8.md).
    static func claimStateDirectory(_ store: StateStore) throws(StartError) -> StateDirectoryLock {
        let directory = store.directory
        do throws(Errno) {
            try store.prepare()
            try store.proveWritable()
        } catch {
            throw StartError(message: "cannot write in the state directory \(directory): \(error)",
                             exitStatus: ExitStatus.cannotCreate)
        }
        do throws(StateDirectoryLock.Failure) {
            return try StateDirectoryLock(directory: directory)
        } catch {
            switch error {
            case .inUse(let holder):
                let who = holder.map { "tiltpuzzled (process \($0))" } ?? "process"
                throw StartError(message: "the state directory \(directory) is in use by another \(who)",
                                 exitStatus: ExitStatus.temporaryFailure)
            case .system(let errno):
                throw StartError(message: "cannot lock the state directory \(directory): \(errno)",
                                 exitStatus: ExitStatus.cannotCreate)
            }
        }
    }

    static func loadConfiguration(_ options: DaemonOptions) throws(StartError) -> Configuration {
        let path = options.configPath ?? Configuration.defaultPath
        let text: String
        do throws(Errno) {
            text = try FileDescriptor.readText(path)
        } catch {
            if options.configPath == nil && error == .noSuchFile { return Configuration() }
            throw StartError(message: "cannot read configuration \(path): \(error)")
        }
        do throws(Configuration.Problem) {
            return try Configuration.parse(text)
        } catch {
            throw StartError(message: "configuration \(path): \(error)")
        }
    }

    static func restoreGame(store: StateStore, configuration: Configuration, log: Logger) -> Game {
        var detector = TiltDetector(configuration: configuration.detector)
        switch store.load() {
        case .loaded(let saved):
            if let neutral = saved.neutral { detector.setNeutral(neutral) }
            log.info("restored the game from \(store.path): revision \(saved.revision), \(saved.puzzle.moves) moves")
            for size in saved.droppedRecords {
                log.notice("dropped the saved \(size)×\(size) record: 0 moves, from a game that began solved")
            }
            var game = Game(puzzle: saved.puzzle, detector: detector, revision: saved.revision, playTime: saved.time,
                            sensitivity: saved.sensitivity, records: saved.records, mayRecord: saved.mayRecord)
            _ = game.reconfigure(configuration.detector, undoLimit: configuration.undoLevels, at: 0)
            return game
        case .corrupt(let reason, let aside):
            log.error("the saved game is unusable (\(reason)); "
                      + (aside.map { "moved it to \($0); " } ?? "") + "starting a new game")
        case .none:
            log.info("no saved game in \(store.directory): starting a new game")
        }
        let puzzle = Puzzle.newGame(side: configuration.defaultSize, seed: UInt64.random(in: .min ... .max),
                                    undoLimit: configuration.undoLevels)
        return Game(puzzle: puzzle, detector: detector)
    }

    /// The source for `spec` now: nil when none is present (one may appear later).
    static func openSource(_ spec: String, speed: ReplaySource.Speed) -> Result<SensorSource, SensorError>? {
        if spec == "none" { return nil }
        do throws(SensorError) {
            switch try SensorSpec(parsing: spec) {
            case .replay(let path): return .success(ReplaySource(path: path, speed: speed))
            case let live: return SensorDiscovery.resolve(live).map { .success($0) }
            }
        } catch {
            return .failure(error)
        }
    }

    /// Live sensors come and go: watch udev (not for replays or `none`).
    private func watchHotplug() {
        guard configuration.source != "none", !configuration.source.hasPrefix("replay:") else { return }
        do throws(SensorError) {
            let monitor = try HotplugMonitor()
            try? loop.watch(monitor.descriptor, .readable) { [weak self] _ in self?.hotplug(monitor.receive()) }
            hotplugMonitor = monitor
        } catch {
            log.warning("no hotplug: \(error); a sensor that appears later needs a restart")
        }
    }

    private func hotplug(_ events: [HotplugEvent]) {
        for event in events {
            switch event {
            case .added(let candidate):
                log.info("udev: \(candidate.info.kind.rawValue) accelerometer \(candidate.info.name) appeared")
                sensors.discover()
            case .removed:
                sensors.deviceRemoved(isOurs: { event.removes($0) })
            }
        }
    }

    private func openListeners() throws(StartError) {
        // Sockets passed to the host program are not ours to take.
        let activated = embeddedStop != nil ? [] : Systemd.listenDescriptors().filter { UnixSocket.isListeningStream($0.descriptor) }
        if !activated.isEmpty {
            for socket in activated { try? socket.descriptor.setNonBlocking() }
            listeners = activated.map(\.descriptor)
            log.info("listening on \(activated.count) socket(s) from socket activation: "
                     + activated.map(\.name).joined(separator: ", "))
            return
        }
        let path = options.socketPath
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            let directory = String(path[..<slash])
            do throws(Errno) {
                _ = try Syscall.call("mkdir") { mkdir(directory, 0o755) }
            } catch where error != Errno(rawValue: EEXIST) {
                throw StartError(message: "cannot create \(directory): \(error)")
            } catch {}
        }
        do throws(Errno) {
            listeners = [try UnixSocket.listen(path: path, mode: 0o660)]
            ownedSocketPath = path
        } catch {
            let advice = error == .addressInUse ? " (another tiltpuzzled is running on it)" : ""
            throw StartError(message: "cannot listen on \(path): \(error)\(advice)")
        }
        log.info("listening on \(path)")
    }

    private func wire() {
        hub.requestSave = { [persister] game in persister.save(game, at: MonotonicClock.now()) }
        hub.requestHint = { [hints] job in hints.submit(job) }
        // Weak: the sensors hold the hub (onSamples), and a strong capture both ways is a
        // cycle that keeps hub, sensors and persister alive after the daemon is gone.
        hub.claimSensor = { [weak sensors] claimed in sensors?.claim(claimed) }
        hub.watchWritable = { [weak self] id, on in self?.setInterest(id, writing: on) }
        hub.watchReadable = { [weak self] id, on in self?.setInterest(id, reading: on) }
        sensors.onSamples = { [hub] samples in hub.sensorSamples(samples) }
        sensors.onReport = { [hub, weak self] report in
            hub.sensorChanged(report)
            self?.notifyStatus()
        }
        sensors.onSource = { [weak self] info in self?.applyMountMatrix(info) }
        sensors.onWaitChanged = { [weak self] in self?.registerSensorWait() }
    }

    private func applyMountMatrix(_ info: SensorInfo) {
        var detector = configuration.detector
        if let override = configuration.mountMatrixOverride, let undo = info.mountMatrix.inverse {
            // The source already applied its own matrix: undo it, apply ours.
            detector.mountMatrix = override * undo
        }
        hub.reconfigure(detector, undoLimit: configuration.undoLevels)
    }

    // MARK: Running

    /// Runs until SIGTERM or SIGINT (embedded: until stopped); the exit status.
    public func run() -> Int32 {
        do throws(Errno) {
            if let stop = embeddedStop {
                try loop.watch(stop.descriptor, .readable) { [weak self] _ in self?.stopping = true }
            } else {
                let signals = try SignalDescriptor([SIGTERM, SIGINT, SIGHUP])
                self.signals = signals
                try loop.watch(signals.descriptor, .readable) { [weak self] _ in self?.handleSignals() }
            }
            try loop.watch(persister.wakeup.descriptor, .readable) { [weak self] _ in self?.savesCompleted() }
            try loop.watch(hints.answersReady.descriptor, .readable) { [weak self] _ in
                guard let self else { return }
                hub.hintsAnswered(hints.takeAnswers())
            }
            for listener in listeners {
                try loop.watch(listener, .readable) { [weak self] _ in self?.acceptClients(listener) }
            }
        } catch {
            log.error("cannot start the event loop: \(error)")
            return 1
        }
        signal(SIGPIPE, SIG_IGN)
        if embeddedStop == nil {
            Self.raiseDescriptorLimit()
            watchHotplug()
        }
        sensors.discover()
        if embeddedStop == nil, let interval = Systemd.watchdogInterval() {
            watchdogInterval = interval
            nextWatchdog = MonotonicClock.now()
        }
        notify("READY=1")
        notifyStatus()
        log.notice("tiltpuzzled \(DaemonInfo.version) ready")
        while !stopping {
            loop.runOnce(until: nextDeadline())
            let now = MonotonicClock.now()
            if let at = sensors.wait.deadline, at <= now { sensors.service(now: now) }
            if now >= nextWatchdog {
                notify("WATCHDOG=1")
                nextWatchdog = now + (watchdogInterval ?? .infinity) / 2
            }
        }
        shutdown()
        return 0
    }

    /// Every client is a descriptor: take the hard limit, not the 1,024 soft default.
    static func raiseDescriptorLimit() {
        var limit = rlimit()
        let resource = Int32(RLIMIT_NOFILE.rawValue)
        guard (try? Syscall.call("getrlimit") { getrlimit(resource, &limit) }) != nil,
              limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = try? Syscall.call("setrlimit") { setrlimit(resource, &limit) }
    }

    private func nextDeadline() -> Double? {
        var deadline = nextWatchdog
        if let at = sensors.wait.deadline { deadline = min(deadline, at) }
        return deadline.isFinite ? deadline : nil
    }

    private func acceptClients(_ listener: FileDescriptor) {
        while true {
            let accepted: FileDescriptor?
            do throws(Errno) {
                accepted = try UnixSocket.accept(listener)
            } catch {
                if error == Errno(rawValue: EMFILE) || error == Errno(rawValue: ENFILE) {
                    // Out of descriptors: stop accepting until a client leaves, rather
                    // than wake up for the same pending connection forever.
                    log.warning("accept: \(error); not accepting until a client leaves")
                    for listener in listeners { loop.unwatch(listener) }
                    acceptingPaused = true
                } else {
                    log.warning("accept failed: \(error)")
                }
                return
            }
            guard let fd = accepted else { return }
            let transport = SocketTransport(descriptor: fd) { [weak self] fd in self?.forget(fd) }
            // Watch before attaching: the greeting may already need to wait for writability.
            var attachedID: Int?
            do throws(Errno) {
                try loop.watch(fd, [.readable, .peerClosed]) { [weak self] events in
                    guard let id = attachedID else { return }
                    self?.clientEvent(id: id, fd: fd, events: events)
                }
            } catch {
                log.warning("cannot watch a client's socket: \(error)")
                try? fd.close()
                continue
            }
            attachedID = hub.attach(transport)
        }
    }

    private var acceptingPaused = false

    /// A client's socket closed: stop watching it, and accept again if we had to stop.
    private func forget(_ fd: FileDescriptor) {
        loop.unwatch(fd)
        interests[fd.rawValue] = nil
        if acceptingPaused {
            acceptingPaused = false
            for listener in listeners {
                try? loop.watch(listener, .readable) { [weak self] _ in self?.acceptClients(listener) }
            }
        }
    }

    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)

    private func clientEvent(id: Int, fd: FileDescriptor, events: Epoll.Events) {
        if events.contains(.writable) {
            hub.writable(id)
            guard hub.isAttached(id) else { return }
        }
        guard events.contains(.readable) || events.contains(.hangup) || events.contains(.peerClosed)
                || events.contains(.error) else { return }
        // Read a bounded amount per wake-up, so one client cannot starve the others.
        for _ in 0..<4 {
            guard hub.wantsInput(id) else {
                // Paused (or closing): its bytes wait in the kernel, which pushes back on
                // the client. A hang-up cannot be left out of epoll's interest, and the
                // peer that hung up can no longer receive its replies.
                if events.contains(.hangup) || events.contains(.error) { hub.detach(id, reason: "connection lost") }
                return
            }
            let count: Int
            do throws(Errno) {
                count = try fd.read(into: &readBuffer)
            } catch {
                if error == .wouldBlock { return }
                hub.detach(id, reason: "read error: \(error)")
                return
            }
            if count == 0 {
                hub.endOfInput(from: id)
                return
            }
            readBuffer.withUnsafeBytes { hub.receive(UnsafeRawBufferPointer(rebasing: $0[..<count]), from: id) }
            if count < readBuffer.count { return }
        }
    }

    /// What each client's socket is watched for, by descriptor.
    private var interests: [Int32: (reading: Bool, writing: Bool)] = [:]

    private func setInterest(_ id: Int, reading: Bool? = nil, writing: Bool? = nil) {
        guard let fd = (hub.transport(of: id) as? SocketTransport)?.descriptor else { return }
        var interest = interests[fd.rawValue] ?? (true, false)
        if let reading { interest.reading = reading }
        if let writing { interest.writing = writing }
        interests[fd.rawValue] = interest
        var events: Epoll.Events = interest.reading ? [.readable, .peerClosed] : []
        if interest.writing { events.insert(.writable) }
        loop.change(fd, events)
    }

    private func registerSensorWait() {
        let wanted = sensors.wait.descriptor
        // The same number may be a new descriptor (a source that switched from its buffer
        // to polling): the generation tells.
        let generation = sensors.waitGeneration
        guard wanted != sensorDescriptor || generation != sensorGeneration else { return }
        if let old = sensorDescriptor { loop.unwatch(old) }
        sensorDescriptor = wanted
        sensorGeneration = generation
        if let fd = wanted {
            do throws(Errno) {
                try loop.watch(fd, .readable) { [weak self] _ in self?.sensors.service(now: MonotonicClock.now()) }
            } catch {
                log.error("cannot watch the sensor: \(error)")
            }
        }
    }

    private func savesCompleted() {
        for completion in persister.takeCompletions() {
            // One line per write of the game file (two fsyncs: the file and its folder);
            // the pipelining benchmark counts them.
            if completion.error == nil { log.debug("saved the game (change \(completion.generation))") }
            hub.saveCompleted(generation: completion.generation, error: completion.error)
        }
    }

    private func handleSignals() {
        for signal in signals?.read() ?? [] {
            switch signal {
            case SIGHUP: reload()
            default:
                log.notice("received signal \(signal): stopping")
                stopping = true
            }
        }
    }

    private func reload() {
        notify("RELOADING=1")
        do throws(StartError) {
            let new = try Self.loadConfiguration(options)
            configuration.detector = new.detector
            configuration.mountMatrixOverride = new.mountMatrixOverride
            configuration.undoLevels = new.undoLevels
            configuration.defaultSize = new.defaultSize
            configuration.limits = new.limits
            hub.limits = new.limits
            if let info = sensors.source?.info { applyMountMatrix(info) } else {
                hub.reconfigure(new.detector, undoLimit: new.undoLevels)
            }
            log.notice("configuration reloaded")
        } catch {
            log.error("configuration not reloaded, keeping the old one: \(error)")
        }
        notify("READY=1")
    }

    /// The service manager hears from the daemon, not from a program it is embedded in.
    private func notify(_ state: String) {
        if embeddedStop == nil { Systemd.notify(state) }
    }

    private func notifyStatus() {
        let report = sensors.report
        notify("STATUS=sensor \(report.status.rawValue)" + (report.name.map { ": \($0)" } ?? "")
                       + ", \(hub.clientCount) client(s)")
    }

    private func shutdown() {
        notify("STOPPING=1")
        sensors.shutdown()
        hints.stop()
        persister.save(hub.game, at: MonotonicClock.now())
        persister.waitUntilIdle()
        for listener in listeners { try? listener.close() }
        if let path = ownedSocketPath { _ = try? Syscall.call("unlink") { unlink(path) } }
        // Only a save that succeeded is reported as one: the last write decides.
        if let failure = persister.takeCompletions().last?.error {
            log.error("stopped, but the game could not be saved (\(failure)); "
                      + "\(store.path) holds the last game saved")
        } else {
            log.notice("stopped; the game is saved in \(store.path)")
        }
    }
}
