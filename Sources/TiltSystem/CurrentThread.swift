import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// How the calling thread is scheduled. On Linux both are a thread's own, and a thread
/// inherits them from the thread that starts it.
public enum CurrentThread {
    /// Lets the thread run only on a core nothing else wants (SCHED_IDLE, sched(7)):
    /// any other thread that wakes there takes the core at once. For work that may wait,
    /// so that the event loop and the player's other programs never wait for it.
    public static func runOnlyWhenIdle() throws(Errno) {
        var parameters = sched_param(sched_priority: 0)
        _ = try Syscall.call("sched_setscheduler") { sched_setscheduler(0, CLINUX_SCHED_IDLE, &parameters) }
    }

    /// Whether the thread runs only when a core is idle (`runOnlyWhenIdle`).
    public static var runsOnlyWhenIdle: Bool { sched_getscheduler(0) == CLINUX_SCHED_IDLE }

    /// How many cores the thread may run on: its affinity, which a service's
    /// CPUAffinity= or a cpuset narrows.
    public static func cores() throws(Errno) -> Int {
        var mask = [UInt64](repeating: 0, count: 16)
        let bytes = mask.count * 8
        _ = try Syscall.call("sched_getaffinity") { sched_getaffinity(0, bytes, &mask) }
        return max(1, mask.reduce(0) { $0 + $1.nonzeroBitCount })
    }
}
