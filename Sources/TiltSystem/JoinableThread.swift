// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// A thread of our own (pthreads), for work that must not run on the event loop
/// because it may block. Its owner tells it to end (through a descriptor it waits
/// on) and then joins it.
public final class JoinableThread {
    private var thread: pthread_t?

    /// What the thread runs; immutable, so it may cross to the thread.
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts `body` on a new thread, under the faults injected where it is started.
    public init(_ body: @escaping @Sendable () -> Void) throws(Errno) {
        var run = body
        if let injector = Syscall.currentInjector {
            run = { Syscall.withFaults(injector, body) }
        }
        let context = Unmanaged.passRetained(Body(run))
        var thread = pthread_t()
        do throws(Errno) {
            _ = try Syscall.call("pthread_create") { () -> Int32 in
                let status = pthread_create(&thread, nil, { raw in
                    Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
                    return nil
                }, context.toOpaque())
                // pthread_create returns the error instead of setting errno.
                if status != 0 { errno = status; return -1 }
                return 0
            }
        } catch {
            context.release()
            throw error
        }
        self.thread = thread
    }

    /// Waits until the body has returned; does nothing the second time.
    public func join() {
        guard let thread else { return }
        self.thread = nil
        pthread_join(thread, nil)
    }

    /// Never joined: the thread is left to end on its own (it keeps what its body holds).
    deinit {
        if let thread { pthread_detach(thread) }
    }
}
