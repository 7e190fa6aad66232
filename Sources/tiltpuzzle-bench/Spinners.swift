// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// A busy machine: shells that spin at the default priority in the benchmark's own
/// session (so in the daemons' scheduler group), each bounded by `timeout` so that none
/// outlives the benchmark; `stop` ends them.
final class Spinners {
    private var processes: [ChildProcess] = []

    init(count: Int) throws {
        for _ in 0..<count {
            processes.append(try ChildProcess(["timeout", "-s", "KILL", "900", "sh", "-c", "while :; do :; done"],
                                              standardInput: .null, standardOutput: .discard, standardError: .discard))
        }
    }

    /// timeout passes SIGTERM on to its shell, then exits.
    func stop() {
        for process in processes { process.signal(SIGTERM) }
        for process in processes { process.wait() }
        processes = []
    }

    deinit { stop() }
}
