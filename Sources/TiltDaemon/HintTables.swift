// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSolver
import TiltSystem

/// The 4×4 hint tables, read from the cache or built on a thread of their own, so that
/// a hint waits for them only as long as its budget allows (docs/solver.md, "Budget"):
/// on a busy machine the first hints get the quick answer while the tables are made.
/// The thread is started by the first hint that asks, and is scheduled as that hint's
/// thread (it inherits its nice value).
final class HintTables {
    /// How the tables are made: read or built (`make`), or a test's stand-in; nil
    /// when `stop` said to give up.
    typealias Make = @Sendable (PatternDatabaseCache?, Logger, _ stop: () -> Bool) -> PatternDatabase?
    private let cache: PatternDatabaseCache?
    private let log: Logger
    private let make: Make
    /// The tables, once made.
    private let made = Locked<PatternDatabase?>(nil)
    /// Readable once they are made: never drained.
    private let ready: WakeupDescriptor
    private var builder: WorkerThread?
    private var failed = false

    /// `cache`: where the tables are kept between runs (nil: built in memory only).
    init(cache: PatternDatabaseCache?, log: Logger, make: @escaping Make = HintTables.make) throws(Errno) {
        self.cache = cache
        self.log = log
        self.make = make
        ready = try WakeupDescriptor()
    }

    /// The tables, waiting for them until `deadline` (on `MonotonicClock`) at the
    /// latest; nil if they are not made by then. The first call starts making them.
    func tables(until deadline: Double) -> PatternDatabase? {
        if let done = made.withLock({ $0 }) { return done }
        start()
        while true {
            if let done = made.withLock({ $0 }) { return done }
            let left = deadline - MonotonicClock.now()
            guard left > 0, !failed else { return nil }
            _ = try? Poll.wait([(ready.descriptor, .readable)], timeout: left)
        }
    }

    private func start() {
        guard builder == nil, !failed else { return }
        let (cache, log, made, ready, make) = (cache, log, made, ready, make)
        do throws(Errno) {
            builder = try WorkerThread { stop in
                // The daemon's end does not wait for tables no hint will use.
                guard let tables = make(cache, log, { stop.isRequested }) else { return }
                made.withLock { $0 = tables }
                ready.signal()
            }
        } catch {
            // Without a thread for them the tables are made on the hint's own, once.
            log.warning("hint tables built on the hint's thread: cannot start a thread for them: \(error)")
            failed = true
            let tables = make(cache, log, { false })
            made.withLock { $0 = tables }
        }
    }

    static func make(_ cache: PatternDatabaseCache?, _ log: Logger, _ stop: () -> Bool) -> PatternDatabase? {
        guard let cache else { return PatternDatabase(unless: stop) }
        guard let (database, origin) = cache.loadOrBuild(unless: stop) else { return nil }
        switch origin {
        case .loaded:
            log.info("hint tables read from \(cache.path)")
        case .built(let reason, let saveError):
            log.info("hint tables built (\(reason))")
            if let saveError { log.warning("hint tables not cached: \(saveError)") }
        }
        return database
    }

    /// Ends the tables' thread, if one was started: building stops within a layer of
    /// its search, and nothing is cached.
    func stop() {
        builder?.stop()
        builder = nil
    }

    deinit {
        stop()
        try? ready.descriptor.close()
    }
}
