// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// A value shared between threads, behind a pthread mutex: what the event loop and
/// its workers (saves, hints, a polled sensor's reader) hand each other.
///
/// Not Synchronization's `Mutex`: that one waits in the kernel on its slow path,
/// which ThreadSanitizer cannot follow, so a contended `Mutex` shows up as a race
/// there (DEVELOPERS.md, "Sanitizers"). A pthread mutex is one it knows.
public final class Locked<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, no other thread holding it meanwhile.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
