// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// The one funnel every system call of ours goes through: it retries on EINTR,
/// turns −1 into a thrown `Errno` that names the call, and lets tests inject failures
/// by name (e.g. make the next `fsync` fail with ENOSPC).
public enum Syscall {
    /// Returns an error to fail the named call with, or nil to run it. `.interrupted`
    /// plays a signal arriving during the call: the call is tried again, as a real
    /// EINTR is (and `close`, which Linux completes even then, is not).
    public typealias FaultInjector = @Sendable (_ name: String) -> Errno?

    /// Bound for one task only (`withFaults`), so a test's faults never reach the tests
    /// that run beside it in the same process.
    @TaskLocal private static var injector: FaultInjector?
    /// How many `withFaults` scopes are open. Every call of every thread checks this,
    /// so it is one atomic read: without injected faults (the programs, always) no
    /// call looks further.
    private static let scopes = Atomic<Int>(0)

    /// Runs `body` with `injector` asked before each system call made on this task
    /// and on the threads started there (`JoinableThread`); for tests.
    @discardableResult
    public static func withFaults<Result>(_ injector: @escaping FaultInjector, _ body: () throws -> Result) rethrows -> Result {
        scopes.add(1, ordering: .sequentiallyConsistent)
        defer { scopes.subtract(1, ordering: .sequentiallyConsistent) }
        return try $injector.withValue(injector) { try body() }
    }

    /// The injector bound to this task, for a thread it starts to bind in turn
    /// (`JoinableThread`): a test's faults reach the threads its code starts.
    public static var currentInjector: FaultInjector? {
        scopes.load(ordering: .sequentiallyConsistent) > 0 ? injector : nil
    }

    /// The injected fault for `name`, if any, as reported by `name` (for calls that
    /// cannot go through `call`).
    public static func faultCheck(_ name: String) -> Errno? {
        guard scopes.load(ordering: .sequentiallyConsistent) > 0 else { return nil }
        return injector?(name)?.reported(by: name)
    }

    /// Runs `body`, retrying while it is interrupted; throws its errno, named `name`,
    /// when it returns −1.
    @inline(__always)
    public static func call<T: BinaryInteger>(_ name: String, _ body: () -> T) throws(Errno) -> T {
        while true {
            if let fault = faultCheck(name) {
                if fault == .interrupted { continue }
                throw fault
            }
            let result = body()
            if result != -1 { return result }
            let error = Errno.current
            if error != .interrupted { throw error.reported(by: name) }
        }
    }
}
