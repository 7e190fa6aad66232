// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// Whether `condition` holds within `seconds`. For what a close does to an open file
/// (a lock released, a pipe's reader gone): a program another test starts meanwhile
/// holds a copy of every descriptor from its fork until its exec, and the file stays
/// open until that copy goes.
func eventually(within seconds: Double = 5, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = MonotonicClock.now() + seconds
    while try !condition() {
        if MonotonicClock.now() >= deadline { return false }
        usleep(1_000)
    }
    return true
}
