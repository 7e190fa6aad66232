// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSystem
import TiltWire
#if canImport(Glibc)
import Glibc
#endif

/// A client's connection to `tiltpuzzled`: connect with errors a person can act on,
/// send requests, read the daemon's messages with timeouts.
public final class DaemonConnection {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case noDaemon(tried: [String])
        /// Something other than a socket is at `path` (a file, a folder): no daemon can be there.
        case notASocket(path: String, kind: FileKind)
        case permissionDenied(path: String)
        case protocolMismatch(String)
        case closed
        case io(path: String, Errno)
        case garbled(String)
        /// A request the daemon did not answer in time (a busy or stuck daemon, not a garbled one).
        case noReply(command: String, seconds: Double)
        /// Connected, but no `hello` came in time.
        case noGreeting(path: String, seconds: Double)

        public var description: String {
            switch self {
            case .noDaemon(let tried):
                // Only the system socket is systemd's to start; a path of one's own needs a daemon there.
                let paths = tried.joined(separator: ", ")
                return tried.contains(DaemonConnection.systemSocket)
                    ? L("no tiltpuzzled is running (tried {0}).\nStart it with 'systemctl start tiltpuzzled.socket', or run 'tiltpuzzled' yourself, or point to its socket with --socket PATH or TILTPUZZLE_SOCKET.", paths)
                    : L("no tiltpuzzled is running (tried {0}).\nStart one there with 'tiltpuzzled --socket {1}', or point to its socket with --socket PATH or TILTPUZZLE_SOCKET.", paths, tried.first ?? "PATH")
            case .notASocket(let path, let kind):
                return L("{0} is not a socket but {1}: no daemon can listen there.\nPoint to the daemon's socket with --socket PATH or TILTPUZZLE_SOCKET.", path, kind)
            case .permissionDenied(let path):
                return L("permission denied on {0}.\nJoin the 'tiltpuzzle' group ('sudo usermod -aG tiltpuzzle $USER', then log in again).", path)
            case .protocolMismatch(let message):
                return L("{0}; update tiltpuzzle or tiltpuzzled so they match.", message)
            case .closed:
                return L("the daemon closed the connection.")
            case .io(let path, let errno):
                return L("cannot talk to the daemon at {0}: {1}", path, errno)
            case .garbled(let message):
                return L("the daemon sent something this client does not understand: {0}", message)
            case .noReply(let command, let seconds):
                return L("the daemon did not answer '{0}' within {1} s (is it overloaded? try again).", command, Int(seconds))
            case .noGreeting(let path, let seconds):
                return L("the daemon at {0} took the connection but did not greet within {1} s (is it stuck starting? see 'journalctl -u tiltpuzzled').", path, Int(seconds))
            }
        }
    }

    public static let systemSocket = "/run/tiltpuzzle/tiltpuzzled.sock"
    /// Seconds a client waits for the daemon's `hello` after connecting.
    public static let greetingTimeout = 30.0

    /// The sockets to try, in order: an explicit path, TILTPUZZLE_SOCKET, the
    /// user's runtime folder, the system socket.
    public static func candidatePaths(explicit: String?, environment: [String: String]) -> [String] {
        if let explicit { return [explicit] }
        if let fromEnvironment = environment["TILTPUZZLE_SOCKET"], !fromEnvironment.isEmpty { return [fromEnvironment] }
        var paths: [String] = []
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            paths.append(runtime + "/tiltpuzzle/tiltpuzzled.sock")
        }
        paths.append(systemSocket)
        return paths
    }

    public let path: String
    public let descriptor: FileDescriptor
    public private(set) var daemonVersion = ""
    private var splitter = LineSplitter(maxLineLength: WireProtocol.maxLineLength)
    private var inbox: [ServerMessage] = []
    private var inboxHead = 0
    private var failure: Failure?
    private var nextID = 1

    /// Connects to the first candidate that answers and reads the `hello`.
    public convenience init(candidates: [String], greetingTimeout: Double = greetingTimeout) throws(Failure) {
        var tried: [String] = []
        for path in candidates {
            let fd: FileDescriptor
            do throws(Errno) {
                fd = try UnixSocket.connect(path: path)
            } catch {
                if error == .permissionDenied { throw .permissionDenied(path: path) }
                // connect says only "refused" for a file or a folder in the socket's place.
                if let kind = try? FileKind(path: path), kind != .socket { throw .notASocket(path: path, kind: kind) }
                tried.append(path)
                continue
            }
            try self.init(path: path, descriptor: fd, greetingTimeout: greetingTimeout)
            return
        }
        throw .noDaemon(tried: tried)
    }

    /// Connects to a daemon that is starting: retries until `path` answers, `timeout`
    /// seconds pass, or `isAlive` says the daemon is gone.
    public static func waiting(for path: String, timeout: Double = 10,
                               while isAlive: () -> Bool = { true }) -> DaemonConnection? {
        let deadline = MonotonicClock.now() + timeout
        while MonotonicClock.now() < deadline, isAlive() {
            if let connection = try? DaemonConnection(candidates: [path]) { return connection }
            usleep(5_000)
        }
        return nil
    }

    private init(path: String, descriptor: FileDescriptor, greetingTimeout: Double) throws(Failure) {
        self.path = path
        self.descriptor = descriptor
        // A socket-activated daemon may still be starting (seconds on a slow tablet):
        // wait for its greeting as long as systemd would wait for it to start.
        switch try next(timeout: greetingTimeout) {
        case .hello(let version)?: daemonVersion = version
        case nil: throw .noGreeting(path: path, seconds: greetingTimeout)
        case let other?: throw .garbled("the first message is not hello but \(other.type)")
        }
    }

    deinit { try? descriptor.close() }

    // MARK: Requests

    /// Sends a command; returns its id.
    @discardableResult
    public func send(_ command: Command) throws(Failure) -> Int {
        let id = nextID
        nextID += 1
        let bytes = ClientRequest(id: .number(String(id)), command: command).encoded()
        // A daemon that closed the connection is an EPIPE to report, never a SIGPIPE.
        let sent = bytes.withUnsafeBytes { buffer in
            Result { () throws(Errno) in
                var offset = 0
                while offset < buffer.count {
                    let count = try UnixSocket.send(descriptor, UnsafeRawBufferPointer(rebasing: buffer[offset...]))
                    if count == 0 { _ = try Poll.wait([(descriptor, .writable)], timeout: nil) }
                    offset += count
                }
            }
        }
        do throws(Errno) {
            try sent.get()
        } catch {
            throw error == .brokenPipe ? .closed : .io(path: path, error)
        }
        return id
    }

    /// Sends a command and reads until its reply or error: the messages before it,
    /// and the reply or error itself last.
    public func request(_ command: Command, timeout: Double = 10) throws(Failure) -> [ServerMessage] {
        let id: Int
        do throws(Failure) {
            id = try send(command)
        } catch where error == .closed {
            // The daemon may have said why before it closed (`too-many-clients` follows
            // the `hello`): an error without an id, which answers this request too.
            id = nextID - 1
        }
        var messages: [ServerMessage] = []
        let deadline = MonotonicClock.now() + timeout
        while true {
            guard let message = try next(timeout: max(0, deadline - MonotonicClock.now())) else {
                throw .noReply(command: command.name, seconds: timeout)
            }
            messages.append(message)
            switch message {
            case .reply(let replyID, _, _), .hint(let replyID, _):
                if replyID?.int == id { return messages }
            case .error(let replyID, _, _):
                // An error without an id answers a request the daemon could not read.
                if replyID == nil || replyID?.int == id { return messages }
            default:
                break
            }
        }
    }

    /// The messages the daemon greets with, up to and including its `state`, last (it
    /// sends one right after `hello`), or up to a refusal that answers no request (a
    /// daemon at its client limit): a command that names a tile needs the board first.
    public func readUntilState(timeout: Double = 10) throws(Failure) -> [ServerMessage] {
        var messages: [ServerMessage] = []
        let deadline = MonotonicClock.now() + timeout
        while true {
            guard let message = try next(timeout: max(0, deadline - MonotonicClock.now())) else {
                throw .noReply(command: "state", seconds: timeout)
            }
            messages.append(message)
            if case .state = message { return messages }
            // A daemon at its client limit greets, then refuses with no id.
            if case .error(nil, _, _) = message { return messages }
        }
    }

    // MARK: Reading

    /// The next message; nil when `timeout` seconds pass first (nil timeout: wait forever).
    public func next(timeout: Double?) throws(Failure) -> ServerMessage? {
        let deadline = timeout.map { MonotonicClock.now() + $0 }
        while true {
            if let message = takeBuffered() { return message }
            if let failure { throw failure }
            let remaining = deadline.map { max(0, $0 - MonotonicClock.now()) }
            let ready: [Poll.Events]
            do throws(Errno) {
                ready = try Poll.wait([(descriptor, .readable)], timeout: remaining)
            } catch {
                throw .io(path: path, error)
            }
            if ready[0].isEmpty { return nil }
            try readAvailable()
        }
    }

    /// A message already received, if any (no waiting).
    public func takeBuffered() -> ServerMessage? {
        guard inboxHead < inbox.count else { return nil }
        let message = inbox[inboxHead]
        inboxHead += 1
        if inboxHead == inbox.count {
            inbox.removeAll(keepingCapacity: true)
            inboxHead = 0
        }
        return message
    }

    /// Reads what the socket has now (it must be readable) into the buffer.
    public func readAvailable() throws(Failure) {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count: Int
        do throws(Errno) {
            count = try descriptor.read(into: &chunk)
        } catch {
            throw .io(path: path, error)
        }
        if count == 0 {
            failure = .closed
            if inboxHead == inbox.count { throw .closed }
            return
        }
        var problem: Failure?
        chunk.withUnsafeBufferPointer { bytes in
            splitter.feed(UnsafeBufferPointer(rebasing: bytes[..<count])) { piece in
                guard case .line(let line) = piece else {
                    problem = .garbled("a line over \(WireProtocol.maxLineLength) bytes")
                    return
                }
                do throws(ServerMessage.DecodingFailure) {
                    inbox.append(try ServerMessage.decode(line))
                } catch {
                    switch error.kind {
                    case .unknownType: return  // from a newer daemon: skip it
                    case .otherProtocol: problem = .protocolMismatch(error.message)
                    case .malformed: problem = .garbled(error.message)
                    }
                }
            }
        }
        if let problem { throw problem }
    }
}
