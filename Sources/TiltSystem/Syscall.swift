#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// The one funnel every system call of ours goes through: it retries on EINTR,
/// turns −1 into a thrown `Errno`, and lets tests inject failures by name
/// (e.g. make the next `fsync` fail with ENOSPC).
public enum Syscall {
    /// Returns an error to fail the named call with, or nil to run it.
    public typealias FaultInjector = @Sendable (_ name: String) -> Errno?

    private static let injector = Mutex<FaultInjector?>(nil)
    /// Whether an injector is installed. Every call of every thread checks this, so it is
    /// an atomic read, not the lock: without injected faults (the programs, always) the
    /// threads never meet on the mutex. A contended Mutex is also one ThreadSanitizer
    /// cannot follow (its slow path waits in the kernel), so it reported a race on it
    /// between the event loop and the save worker (DEVELOPERS.md, "Sanitizers").
    private static let installed = Atomic<Bool>(false)

    /// Installs (or with nil removes) the fault injector; for tests.
    public static func injectFaults(_ body: FaultInjector?) {
        injector.withLock { $0 = body }
        installed.store(body != nil, ordering: .releasing)
    }

    /// The injected fault for `name`, if any (for calls that cannot go through `call`).
    public static func faultCheck(_ name: String) -> Errno? {
        guard installed.load(ordering: .acquiring) else { return nil }
        return injector.withLock({ $0 })?(name)
    }

    /// Runs `body`, retrying while it is interrupted; throws its errno when it returns −1.
    @inline(__always)
    public static func call<T: BinaryInteger>(_ name: String, _ body: () -> T) throws(Errno) -> T {
        if let fault = faultCheck(name) { throw fault }
        while true {
            let result = body()
            if result != -1 { return result }
            let error = Errno.current
            if error != .interrupted { throw error }
        }
    }
}
