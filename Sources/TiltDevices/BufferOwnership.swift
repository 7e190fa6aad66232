// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// Whose an enabled IIO buffer is (docs/sensors.md, IIO, "A buffer in use").
///
/// The kernel lets one process at a time open an IIO device's node (EBUSY for the
/// others), and a reader of the buffer holds it open, or opens it every time it reads
/// (iio-sensor-proxy: every 700 ms). So an enabled buffer whose node nobody opens while
/// it is watched is a program's that died (this daemon after SIGKILL, an OOM kill, a
/// watchdog abort), and is taken back; otherwise it is another program's, and nothing
/// of the device is written.
struct BufferOwnership {
    /// Seconds an enabled buffer's node is watched for another program's opens before
    /// the buffer is taken back: twice iio-sensor-proxy's period, and some.
    static let watchTime = 1.5

    /// `iio:deviceN`, for the messages.
    let deviceID: String
    /// The device's sysfs directory (`buffer/enable` in it) and its node.
    let sysfsDirectory: String
    let node: String

    private var enablePath: String { sysfsDirectory + "/buffer/enable" }

    enum Finding {
        /// Not enabled: ours to set up.
        case free
        /// Another program's: poll beside it, changing nothing (the line says why).
        case foreign(String)
        /// Enabled with its node free: watched until `deadline` for a program that
        /// opens it now and then.
        case watching(OpenWatch, deadline: Double)
        /// Enabled, and its node cannot be watched: to be taken back at once (the line
        /// says why).
        case unwatchable(String)
    }

    /// What the buffer is at `now`, before the source writes anything.
    func find(now: Double) -> Finding {
        guard SysfsFile.read(enablePath) == "1" else { return .free }
        if let error = Self.nodeOpenError(node) {
            return .foreign(error == .busy
                ? "\(deviceID): its buffer is in use by another program; polling, changing nothing"
                : "\(deviceID): its buffer is enabled and \(node) cannot be opened (\(error)); polling, changing nothing")
        }
        do throws(Errno) {
            return .watching(try OpenWatch(node), deadline: now + Self.watchTime)
        } catch {
            return .unwatchable("\(deviceID): cannot watch \(node) for other readers (\(error)); taking its buffer back now")
        }
    }

    enum Verdict: Equatable {
        /// Another program opened the node meanwhile: the buffer is its own (the line says so).
        case foreign(String)
        /// Nobody did until the deadline: a stopped program's buffer.
        case stale
    }

    /// The watch's verdict at `now`; nil while it goes on.
    func verdict(_ watch: OpenWatch, now: Double, deadline: Double) -> Verdict? {
        if watch.opened() {
            return .foreign("\(deviceID): another program reads its buffer now and then; polling, changing nothing")
        }
        return now >= deadline ? .stale : nil
    }

    /// Disables a stopped program's buffer (buffered capture sets it up again; stop
    /// leaves it disabled, the state it had without a reader). Whether it was done, and
    /// the line for the log.
    func takeBack() -> (taken: Bool, note: String) {
        do {
            try SysfsFile.write(enablePath, "0")
        } catch {
            return (false, "\(deviceID): cannot disable the buffer a stopped program left enabled (\(error)); polling, changing nothing")
        }
        return (true, "\(deviceID): took back the buffer a stopped program left enabled")
    }

    /// The sensor is held by another program: by name, where we may see its descriptors.
    /// `procRoot` is for tests.
    func busyError(procRoot: String = "/proc") -> SensorError {
        let names = NodeHolders.programs(holding: node, procRoot: procRoot)
        let who = names.isEmpty ? "another program" : "another program (\(names.joined(separator: ", ")))"
        return SensorError("the accelerometer is in use by \(who); tilting resumes when it is free", kind: .busy)
    }

    /// Opens the node and closes it again; the error if it would not open.
    /// (`Syscall` name "open IIO node", for tests to play a busy device.)
    static func nodeOpenError(_ node: String) -> Errno? {
        do {
            let fd = try Syscall.call("open IIO node") { Glibc.open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
            try? FileDescriptor(rawValue: fd).close()
            return nil
        } catch {
            return error
        }
    }
}
