// SPDX-License-Identifier: GPL-3.0-or-later
import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// How the calling thread is scheduled. On Linux both are a thread's own, and a thread
/// inherits them from the thread that starts it.
public enum CurrentThread {
    /// Lets the thread run only on a core nothing else wants (SCHED_IDLE, sched(7)):
    /// any other thread that wakes there takes the core at once. For work that may wait
    /// without bound: while every core is busy it gets none (the hint threads, which
    /// must answer in time, take nice 19 instead: `setNice`, docs/solver.md).
    public static func runOnlyWhenIdle() throws(Errno) {
        var parameters = sched_param(sched_priority: 0)
        _ = try Syscall.call("sched_setscheduler") { sched_setscheduler(0, CLINUX_SCHED_IDLE, &parameters) }
    }

    /// Whether the thread runs only when a core is idle (`runOnlyWhenIdle`).
    public static var runsOnlyWhenIdle: Bool { sched_getscheduler(0) == CLINUX_SCHED_IDLE }

    /// Gives the thread (not its process: on Linux a thread id names one thread) the nice
    /// value `nice`, 0 to 19 (setpriority(2)): it still gets a share of a busy core, in
    /// proportion to its weight against the others' in its scheduler group (sched(7)),
    /// so its work ends however busy the machine is. Raising one's own nice value needs
    /// no privilege; lowering it again may.
    public static func setNice(_ nice: Int32) throws(Errno) {
        _ = try Syscall.call("setpriority") { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(gettid()), nice) }
    }

    /// The thread's nice value (`setNice`).
    public static var nice: Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(gettid())) }

    /// How many cores the thread may run on: its affinity, which a service's
    /// CPUAffinity= or a cpuset narrows.
    public static func cores() throws(Errno) -> Int {
        var mask = [UInt64](repeating: 0, count: 16)
        let bytes = mask.count * 8
        _ = try Syscall.call("sched_getaffinity") { sched_getaffinity(0, bytes, &mask) }
        return max(1, mask.reduce(0) { $0 + $1.nonzeroBitCount })
    }
}
