// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// The funnel itself: retries, errno, the call's name.
@Suite struct SyscallTests {
    @Test func anInterruptedCallIsRetriedUntilItReturns() throws {
        var attempts = 0
        let result = try Syscall.call("read") { () -> Int in
            attempts += 1
            if attempts < 3 { errno = EINTR; return -1 }
            return 7
        }
        #expect(result == 7)
        #expect(attempts == 3)
    }

    @Test func aFailureIsThrownOnceWithItsNumberAndTheCallsName() {
        var attempts = 0
        do {
            _ = try Syscall.call("connect") { () -> Int32 in
                attempts += 1
                errno = ECONNREFUSED
                return -1
            }
            Issue.record("no error thrown")
        } catch {
            #expect(error == .connectionRefused)
            #expect(error.call == "connect")
            #expect(error.description == "connect: " + String(cString: strerror(ECONNREFUSED)))
        }
        #expect(attempts == 1)
    }

    @Test func errorsAreEqualByNumberWhereverTheyCameFrom() {
        #expect(Errno(rawValue: EAGAIN, call: "read") == .wouldBlock)
        #expect(Errno(rawValue: EAGAIN, call: "read").hashValue == Errno.wouldBlock.hashValue)
        #expect(Errno(rawValue: EAGAIN, call: "read") != Errno(rawValue: EIO, call: "read"))
        #expect(Errno.noSuchFile.description == String(cString: strerror(ENOENT)))
    }

    /// A test's faults reach its own task and the threads it starts there, never a
    /// thread started elsewhere (another test's), even while the scope is open.
    @Test func faultsReachOnlyTheTaskThatAskedForThemAndItsThreads() throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        defer { folder.remove() }
        let path = folder.path
        @Sendable func makeFolder(_ name: String, into result: Locked<Errno?>) {
            do throws(Errno) { _ = try Syscall.call("mkdir") { mkdir(path + "/" + name, 0o700) } } catch { result.withLock { $0 = error } }
        }
        let elsewhere = Locked<Errno?>(nil), started = Locked<Errno?>(nil)
        let go = try FileDescriptor.pipe()
        let other = try JoinableThread {
            var byte: UInt8 = 0
            _ = read(go.read.rawValue, &byte, 1)
            makeFolder("elsewhere", into: elsewhere)
        }
        try Syscall.withFaults({ $0 == "mkdir" ? .noSpace : nil }) {
            let own = try JoinableThread { makeFolder("started", into: started) }
            own.join()
            try go.write.writeAll([1])
            other.join()
            #expect(throws: Errno.noSpace) { try Syscall.call("mkdir") { mkdir(path + "/here", 0o700) } }
        }
        try? go.read.close()
        try? go.write.close()
        #expect(started.withLock { $0 } == .noSpace)
        #expect(elsewhere.withLock { $0 } == nil)
        #expect(access(path + "/elsewhere", F_OK) == 0)
    }
}

/// What a wrapper's test works on, made before any fault is injected: a file, a pipe
/// with a byte waiting, a listening socket with a connection, a datagram socket.
final class Scratch {
    let folder: TemporaryDirectory
    let file: String
    let fileDescriptor: FileDescriptor
    let pipe: (read: FileDescriptor, write: FileDescriptor)
    let socketPath: String
    let listener: FileDescriptor
    let client: FileDescriptor
    let datagramPath: String
    let datagram: FileDescriptor
    let epoll: Epoll

    init() throws {
        folder = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        file = folder.path + "/file"
        fileDescriptor = try FileDescriptor.open(file, [.readWrite, .create])
        pipe = try FileDescriptor.pipe()
        try pipe.write.writeAll("x")
        socketPath = folder.path + "/stream.sock"
        listener = try UnixSocket.listen(path: socketPath)
        client = try UnixSocket.connect(path: socketPath)
        datagramPath = folder.path + "/datagram.sock"
        datagram = try UnixSocket.bindDatagram(path: datagramPath)
        epoll = try Epoll()
    }

    deinit {
        for fd in [fileDescriptor, pipe.read, pipe.write, listener, client, datagram] { try? fd.close() }
        epoll.close()
        folder.remove()
    }
}

/// One wrapper over a system call, run with faults injected for that call.
struct Wrapper: Sendable, CustomTestStringConvertible {
    /// The name the wrapper gives `Syscall.call`.
    var call: String
    /// Whether EAGAIN is an answer rather than an error (nothing to accept, a full buffer).
    var wouldBlockIsAnAnswer = false
    /// How many times the wrapper makes the call when nothing fails.
    var calls = 1
    var run: @Sendable (Scratch) throws -> Void

    var testDescription: String { call }

    static let all: [Wrapper] = [
        Wrapper(call: "open") { try FileDescriptor.open($0.file).close() },
        Wrapper(call: "read") { var byte: [UInt8] = [0]; _ = try $0.pipe.read.read(into: &byte) },
        Wrapper(call: "write") { try $0.pipe.write.writeAll("y") },
        Wrapper(call: "fsync") { try $0.fileDescriptor.sync() },
        Wrapper(call: "fcntl", calls: 2) { try $0.pipe.read.setNonBlocking() },
        Wrapper(call: "pipe2") { _ in
            let ends = try FileDescriptor.pipe()
            try ends.read.close()
            try ends.write.close()
        },
        Wrapper(call: "rename") { try FileDescriptor.replaceAtomically($0.file, with: [1, 2, 3]) },
        Wrapper(call: "epoll_create1") { _ in try Epoll().close() },
        Wrapper(call: "epoll_ctl") { try $0.epoll.add($0.pipe.read, .readable, token: 1) },
        Wrapper(call: "epoll_wait") { _ = try $0.epoll.wait(timeout: 0) },
        Wrapper(call: "poll") { _ = try Poll.wait([($0.pipe.read, .readable)], timeout: 0) },
        Wrapper(call: "stat") { _ = try FileKind(path: $0.socketPath) },
        Wrapper(call: "socket") { try UnixSocket.connect(path: $0.socketPath).close() },
        Wrapper(call: "connect") { try UnixSocket.connect(path: $0.socketPath).close() },
        Wrapper(call: "bind") { try UnixSocket.listen(path: $0.folder.path + "/other.sock").close() },
        Wrapper(call: "listen") { try UnixSocket.listen(path: $0.folder.path + "/other.sock").close() },
        Wrapper(call: "accept", wouldBlockIsAnAnswer: true) { try UnixSocket.accept($0.listener)?.close() },
        Wrapper(call: "send", wouldBlockIsAnAnswer: true) { scratch in
            _ = try [UInt8]("x".utf8).withUnsafeBytes { try UnixSocket.send(scratch.client, $0) }
        },
        Wrapper(call: "sendto") { try UnixSocket.sendDatagram([1], to: $0.datagramPath) },
        Wrapper(call: "eventfd") { _ in try WakeupDescriptor().descriptor.close() },
        Wrapper(call: "timerfd_create") { _ in try DeadlineTimer().descriptor.close() },
        Wrapper(call: "timerfd_settime") { _ in
            let timer = try DeadlineTimer()
            defer { try? timer.descriptor.close() }
            try timer.arm(at: 1)
        },
        Wrapper(call: "signalfd") { _ in try SignalDescriptor([SIGURG]).descriptor.close() },
        Wrapper(call: "mkdtemp") { _ in try TemporaryDirectory(prefix: "tiltpuzzle-test").remove() },
        Wrapper(call: "posix_spawn") { _ in try ChildProcess(["true"]).wait() },
        Wrapper(call: "pidfd_open") { _ in
            let child = try ChildProcess(["sleep", "30"])
            defer {
                child.signal(SIGKILL)
                child.wait()
            }
            _ = try child.wait(timeout: 0)
        },
        Wrapper(call: "pthread_create") { _ in try JoinableThread({}).join() },
        // On a thread of its own, so that the test's thread keeps its scheduling.
        Wrapper(call: "sched_setscheduler") { _ in
            let failure = Locked<Errno?>(nil)
            try JoinableThread {
                do throws(Errno) { try CurrentThread.runOnlyWhenIdle() } catch { failure.withLock { $0 = error } }
            }.join()
            if let error = failure.withLock({ $0 }) { throw error }
        },
        Wrapper(call: "setpriority") { _ in
            let failure = Locked<Errno?>(nil)
            try JoinableThread {
                do throws(Errno) { try CurrentThread.setNice(5) } catch { failure.withLock { $0 = error } }
            }.join()
            if let error = failure.withLock({ $0 }) { throw error }
        },
        Wrapper(call: "sched_getaffinity") { _ in _ = try CurrentThread.cores() },
    ]
}

/// Every wrapper through the fault injector, as swift-system tests its own: a failure
/// comes out as the call's errno with the call's name, an interruption is retried,
/// and EAGAIN is an error except where it is an answer.
@Suite struct WrapperFaultTests {
    /// How often each call was asked about; faults for `call` from `faults`, in turn.
    final class Injector: Sendable {
        let call: String
        let faults: Locked<[Errno]>
        let asked = Locked<Int>(0)

        init(_ call: String, _ faults: [Errno]) {
            self.call = call
            self.faults = Locked(faults)
        }

        func fault(_ name: String) -> Errno? {
            guard name == call else { return nil }
            asked.withLock { $0 += 1 }
            return faults.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        }
    }

    @Test(arguments: Wrapper.all)
    func aFailureIsThrownNamingTheCall(_ wrapper: Wrapper) throws {
        let scratch = try Scratch()
        let injector = Injector(wrapper.call, [.ioError])
        do {
            try Syscall.withFaults({ injector.fault($0) }) { try wrapper.run(scratch) }
            Issue.record("\(wrapper.call): no error thrown")
        } catch let error as Errno {
            #expect(error == .ioError)
            #expect(error.call == wrapper.call)
            #expect(error.description.hasPrefix(wrapper.call + ": "))
        }
        #expect(injector.asked.withLock { $0 } == 1)
    }

    @Test(arguments: Wrapper.all)
    func anInterruptionIsRetried(_ wrapper: Wrapper) throws {
        let scratch = try Scratch()
        let injector = Injector(wrapper.call, [.interrupted, .interrupted])
        try Syscall.withFaults({ injector.fault($0) }) { try wrapper.run(scratch) }
        #expect(injector.asked.withLock { $0 } == 2 + wrapper.calls)
    }

    @Test(arguments: Wrapper.all)
    func wouldBlockIsAnErrorUnlessItIsAnAnswer(_ wrapper: Wrapper) throws {
        let scratch = try Scratch()
        let injector = Injector(wrapper.call, [.wouldBlock])
        if wrapper.wouldBlockIsAnAnswer {
            try Syscall.withFaults({ injector.fault($0) }) { try wrapper.run(scratch) }
        } else {
            #expect(throws: Errno.wouldBlock) { try Syscall.withFaults({ injector.fault($0) }) { try wrapper.run(scratch) } }
        }
        #expect(injector.asked.withLock { $0 } == 1)
    }

    /// A wake-up is never lost to an interruption, and EAGAIN (a full counter, or nothing
    /// to clear) is an answer: the descriptor is readable already, or was not.
    @Test func aWakeupIsRetriedWhenInterruptedAndItsEAGAINIsAnAnswer() throws {
        let wakeup = try WakeupDescriptor()
        defer { try? wakeup.descriptor.close() }
        let injector = Injector("write", [.interrupted, .interrupted])
        Syscall.withFaults({ injector.fault($0) }) { wakeup.signal() }
        #expect(injector.asked.withLock { $0 } == 3)
        #expect(try Poll.wait([(wakeup.descriptor, .readable)], timeout: 0) == [.readable])
        wakeup.drain()
        #expect(try Poll.wait([(wakeup.descriptor, .readable)], timeout: 0) == [[]])
        wakeup.drain()
        Syscall.withFaults({ $0 == "write" ? .wouldBlock : nil }) { wakeup.signal() }
    }

    /// Linux closes the descriptor even when close reports EINTR, so it is never
    /// retried: a retry could close a descriptor another thread has just been given.
    @Test func anInterruptedCloseIsNotRetriedAndTheDescriptorIsClosed() throws {
        let ends = try FileDescriptor.pipe()
        defer { try? ends.write.close() }
        let injector = Injector("close", [.interrupted, .interrupted])
        try Syscall.withFaults({ injector.fault($0) }) { try ends.read.close() }
        #expect(injector.asked.withLock { $0 } == 1)
        // Seen from the other end, not by the number: a test running beside this one
        // may have been given that number already.
        #expect(try eventually { try Poll.wait([(ends.write, .writable)], timeout: 0)[0].contains(.error) },
                "no reader is left")
    }

    @Test func aFailedCloseNamesTheCall() throws {
        let ends = try FileDescriptor.pipe()
        defer {
            try? ends.read.close()
            try? ends.write.close()
        }
        #expect(throws: Errno.ioError) { try Syscall.withFaults({ $0 == "close" ? .ioError : nil }) { try ends.read.close() } }
        do {
            try FileDescriptor(rawValue: Int32.max).close()
            Issue.record("closing no descriptor succeeded")
        } catch {
            #expect(error == .badFileDescriptor && error.call == "close")
        }
    }
}
