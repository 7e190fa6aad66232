// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCommandLine
import TiltCore
import TiltDevices
import TiltSystem
import TiltWire
#if canImport(Glibc)
import Glibc
#endif

/// `tiltpuzzled`: wires sensor → detector → puzzle → clients on one event loop. It owns
/// the hub, the sensor manager, the client sockets and the hub's delegate.
public final class Daemon {
    private let configurationLoader: ConfigurationLoader
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
    private let clients: ClientSockets
    /// Held here: the hub holds its delegate unowned.
    private let hubDelegate: DaemonHubDelegate
    /// The socket file we created (and remove at exit); nil under socket activation.
    private let ownedSocketPath: String?
    private var hotplugMonitor: HotplugMonitor?
    private let host: DaemonHost

    public struct StartError: Error, CustomStringConvertible {
        public var message: String
        /// What `tiltpuzzled` exits with (docs/tiltpuzzled.8.md, EXIT STATUS).
        public var exitStatus: Int32 = 1
        public var description: String { message }
    }

    /// The installed daemon: systemd's, with the process's signals.
    public convenience init(options: DaemonOptions, log: Logger) throws(StartError) {
        try self.init(options: options, log: log, host: SystemdHost(log: log))
    }

    init(options: DaemonOptions, log: Logger, host: DaemonHost) throws(StartError) {
        self.log = log
        self.host = host
        configurationLoader = ConfigurationLoader(options: options, readsFile: host.readsConfigurationFile)
        configuration = try configurationLoader.load()

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
        let source = configuration.source
        let speed = options.replaySpeed
        sensors = SensorManager(alwaysOn: configuration.alwaysOn, playRate: configuration.sampleRate,
                                disabled: source == "none", loop: loop, log: log) {
            Self.openSource(source, speed: speed)
        }
        hubDelegate = DaemonHubDelegate(persister: persister, hints: hints, sensors: sensors)
        hub = Hub(game: game, version: DaemonInfo.version, limits: configuration.limits, log: log,
                  clock: MonotonicClock.now, delegate: hubDelegate)
        let listening = try Self.openListeners(options: options, log: log, passed: host.passedListeners())
        ownedSocketPath = listening.ownedPath
        clients = ClientSockets(listeners: listening.sockets, loop: loop, hub: hub, log: log)
        hubDelegate.clients = clients
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
        case .nothingSaved:
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
            _ = try? loop.watch(monitor.descriptor, .readable) { [weak self] _, now in
                self?.hotplug(monitor.receive(), now: now)
            }
            hotplugMonitor = monitor
        } catch {
            log.warning("no hotplug: \(error); a sensor that appears later needs a restart")
        }
    }

    private func hotplug(_ events: [HotplugEvent], now: Double) {
        for event in events {
            switch event {
            case .added(let candidate):
                log.info("udev: \(candidate.info.kind.rawValue) accelerometer \(candidate.info.name) appeared")
                sensors.discover(now: now)
            case .removed:
                sensors.deviceRemoved(isOurs: { event.removes($0) }, now: now)
            }
        }
    }

    /// The sockets the host passed (socket activation), else one at the socket path.
    private static func openListeners(options: DaemonOptions, log: Logger, passed: [(descriptor: FileDescriptor, name: String)])
        throws(StartError) -> (sockets: [FileDescriptor], ownedPath: String?) {
        if !passed.isEmpty {
            for socket in passed { try? socket.descriptor.setNonBlocking() }
            log.info("listening on \(passed.count) socket(s) from socket activation: "
                     + passed.map(\.name).joined(separator: ", "))
            return (passed.map(\.descriptor), nil)
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
        let socket: FileDescriptor
        do throws(Errno) {
            socket = try UnixSocket.listen(path: path, mode: 0o660)
        } catch {
            let advice = error == .addressInUse ? " (another tiltpuzzled is running on it)" : ""
            throw StartError(message: "cannot listen on \(path): \(error)\(advice)")
        }
        log.info("listening on \(path)")
        return ([socket], path)
    }

    private func wire() {
        sensors.onSamples = { [hub] samples in hub.sensorSamples(samples) }
        sensors.onReport = { [hub, weak self] report in
            hub.sensorChanged(report)
            self?.notifyStatus()
        }
        sensors.onSource = { [weak self] _ in self?.applyMountMatrix() }
        hubDelegate.claimChangedReport = { [weak self] in self?.notifyStatus() }
    }

    private func applyMountMatrix() {
        // The source applies the one matrix: ours, else the device's own (docs/sensors.md).
        sensors.source?.setMountMatrix(configuration.mountMatrixOverride)
        hub.reconfigure(configuration.detector, undoLimit: configuration.undoLevels)
    }

    // MARK: Running

    /// Runs until the host asks it to stop (SIGTERM or SIGINT for systemd's); the exit status.
    public func run() -> Int32 {
        do throws(Errno) {
            // Weak: the loop keeps its handlers, and a handler that kept the loop would
            // keep both alive after the daemon is done.
            try host.watchRequests(on: loop, stop: { [weak loop] in loop?.stop() }, reload: { [weak self] in self?.reload() })
            try loop.watch(persister.completionsReady.descriptor, .readable) { [weak self] _, _ in self?.savesCompleted() }
            try loop.watch(hints.answersReady.descriptor, .readable) { [weak self] _, _ in
                guard let self else { return }
                hub.hintsAnswered(hints.takeAnswers())
            }
            try clients.start()
        } catch {
            log.error("cannot start the event loop: \(error)")
            return 1
        }
        signal(SIGPIPE, SIG_IGN)
        if host.ownsProcess {
            Self.raiseDescriptorLimit()
            watchHotplug()
        }
        sensors.discover(now: MonotonicClock.now())
        if let interval = host.watchdogInterval {
            // Pinged at half the interval, as sd_watchdog_enabled(3) advises.
            var nextPing = MonotonicClock.now()
            loop.addTimer(deadline: { nextPing }) { [weak self] now in
                self?.notify("WATCHDOG=1")
                nextPing = now + interval / 2
            }
        }
        notify("READY=1")
        notifyStatus()
        log.notice("tiltpuzzled \(DaemonInfo.version) ready")
        var status: Int32 = 0
        do throws(Errno) {
            try loop.run()
        } catch {
            log.error("the event loop failed: \(error); stopping")
            status = 1
        }
        shutdown()
        return status
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

    private func savesCompleted() {
        for completion in persister.takeCompletions() {
            // One line per write of the game file (two fsyncs: the file and its folder);
            // the pipelining benchmark counts them.
            if completion.failure == nil { log.debug("saved the game (change \(completion.generation))") }
            hub.saveCompleted(generation: completion.generation, failure: completion.failure)
        }
    }

    private func reload() {
        notify("RELOADING=1")
        do throws(StartError) {
            configuration = try configurationLoader.reload(configuration)
            hub.limits = configuration.limits
            applyMountMatrix()
            log.notice("configuration reloaded")
        } catch {
            log.error("configuration not reloaded, keeping the old one: \(error)")
        }
        notify("READY=1")
    }

    private func notify(_ state: String) { host.notify(state) }

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
        persister.finish()
        clients.close()
        if let path = ownedSocketPath { _ = try? Syscall.call("unlink") { unlink(path) } }
        loop.close()
        // Only a save that succeeded is reported as one: the last write decides.
        if let failure = persister.takeCompletions().last?.failure {
            log.error("stopped, but the game could not be saved (\(failure)); "
                      + "\(store.path) holds the last game saved")
        } else {
            log.notice("stopped; the game is saved in \(store.path)")
        }
    }
}
