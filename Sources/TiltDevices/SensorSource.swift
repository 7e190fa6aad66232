// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSystem

/// What kind of driver a source is.
public enum SensorKind: String, Sendable, Codable, CaseIterable {
    case iio, evdev, replay
}

/// A source's metadata, for logs, `tiltpuzzle sensors` and the protocol's `sensor` message.
public struct SensorInfo: Sendable, Equatable, Codable {
    public var kind: SensorKind
    public var name: String
    public var sysfsPath: String?
    public var deviceNode: String?
    /// Samples per second, when known.
    public var samplingRate: Double?
    /// Sensor frame → device frame, already applied to the samples the source delivers:
    /// the device's own (from discovery), or the configuration's once the source is
    /// told it (`SensorSource.setMountMatrix`).
    public var mountMatrix: Matrix3
    /// `display`, `base`, `lid`… from udev's ACCEL_LOCATION or the sysfs label.
    public var location: String?
    /// IIO: buffered capture (true) or polled raw attributes (false).
    public var buffered: Bool?

    public init(kind: SensorKind, name: String, sysfsPath: String? = nil, deviceNode: String? = nil,
                samplingRate: Double? = nil, mountMatrix: Matrix3 = .identity, location: String? = nil,
                buffered: Bool? = nil) {
        self.kind = kind
        self.name = name
        self.sysfsPath = sysfsPath
        self.deviceNode = deviceNode
        self.samplingRate = samplingRate
        self.mountMatrix = mountMatrix
        self.location = location
        self.buffered = buffered
    }
}

/// What a source reports when serviced.
public enum SensorEvent: Sendable, Equatable {
    /// Samples in m/s², device frame, in time order.
    case samples([Sample])
    /// A replay reached its end (live sources never end).
    case ended
    /// The device went away; the source is stopped.
    case removed
    /// Something worth a log line that does not stop the source (a malformed trace line).
    case warning(String)
    /// The source failed and is stopped.
    case failed(String)
    /// Another program took the device (the driver refuses our reads while that
    /// program has the buffer); the source is stopped and may be started again later.
    case busy(String)
}

/// What the event loop must wait for before servicing a started source again.
public enum SensorWait: Sendable, Equatable {
    /// The descriptor becomes readable (IIO buffer, the polled IIO source's reader, evdev node).
    case readable(FileDescriptor)
    /// The monotonic clock reaches this time (replay pacing).
    case deadline(Double)
    /// The descriptor becomes readable, or else the clock reaches this time: a source
    /// that must notice silence (an IIO buffer that never delivers a scan).
    case readableUntil(FileDescriptor, Double)
    /// Nothing: stopped, ended, or removed.
    case idle
}

extension SensorWait {
    /// The descriptor to watch, if any.
    public var descriptor: FileDescriptor? {
        switch self {
        case .readable(let fd), .readableUntil(let fd, _): fd
        case .deadline, .idle: nil
        }
    }

    /// When to service the source even if nothing is readable, if ever.
    public var deadline: Double? {
        switch self {
        case .deadline(let time), .readableUntil(_, let time): time
        case .readable, .idle: nil
        }
    }
}

public struct SensorError: Error, Equatable, CustomStringConvertible {
    /// What the daemon does about it.
    public enum Kind: Sendable, Equatable {
        /// The device cannot be used (missing, unreadable, not an accelerometer): the
        /// daemon reports it and waits for another device or a hotplug.
        case unavailable
        /// Another program holds the device: not a failure, it is worth trying again
        /// when that program lets go (docs/sensors.md, "A sensor held by another program").
        case busy
    }
    public var kind: Kind
    public var message: String
    public init(_ message: String, kind: Kind = .unavailable) {
        self.message = message
        self.kind = kind
    }
    public var description: String { message }
}

/// One accelerometer driver, behind one small interface the daemon is handed
/// (docs/sensors.md). A source does nothing until started and holds
/// no device resources once stopped. It never blocks: the event loop waits on
/// `wait` and then calls `service(now:)`.
public protocol SensorSource: AnyObject {
    var info: SensorInfo { get }
    /// Claims the device and begins capture.
    func start() throws(SensorError)
    /// Ends capture and releases the device; safe to call when not started.
    func stop()
    var wait: SensorWait { get }
    /// Reads whatever is ready; `now` is the monotonic clock.
    func service(now: Double) -> [SensorEvent]
    /// The slowest sampling rate to ask the device for at the next `start`, where the
    /// device lets the rate be chosen (IIO); others ignore it.
    func setMinimumRate(_ hertz: Double)
    /// The configuration's mount matrix, which the source applies instead of the
    /// device's own from its next sample on; nil for the device's own (docs/sensors.md,
    /// "Mount matrix"). `info.mountMatrix` says which is applied.
    func setMountMatrix(_ configured: Matrix3?)
    /// Counts the times the source replaced the descriptor it waits on while running (an
    /// IIO source that gave up its buffer for polling): the new one may have the old
    /// one's number, so a loop that watches it compares this too, not only the number.
    var descriptorSwaps: Int { get }
    /// False while a started source still finds out how it may read the device (an IIO
    /// source watching for another program that reads its buffer now and then); it
    /// delivers nothing meanwhile, and the daemon says `active` only once this is true.
    var isSettled: Bool { get }
}

extension SensorSource {
    public func setMinimumRate(_ hertz: Double) {}
    public func setMountMatrix(_ configured: Matrix3?) {}
    public var descriptorSwaps: Int { 0 }
    public var isSettled: Bool { true }
}
