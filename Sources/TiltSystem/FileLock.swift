// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension FileDescriptor {
    /// Takes an exclusive flock(2) on the open file without waiting; false when another
    /// open file description holds a lock on it. The lock lasts until every copy of this
    /// descriptor is closed, which the kernel does whenever the process ends (kill -9
    /// included), so a lock is never left behind by a process that is gone.
    public func tryLockExclusively() throws(Errno) -> Bool {
        do throws(Errno) {
            _ = try Syscall.call("flock") { flock(rawValue, LOCK_EX | LOCK_NB) }
            return true
        } catch where error == .wouldBlock {
            return false
        }
    }
}
