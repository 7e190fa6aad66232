// SPDX-License-Identifier: GPL-3.0-or-later
import CEvdev
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// The libevdev wrapper: the only file that imports CEvdev.
public enum LibEvdev {
    /// The kernel's name of an event type, e.g. "EV_ABS" for 3.
    public static func eventTypeName(_ type: UInt32) -> String? {
        libevdev_event_type_get_name(type).map { String(cString: $0) }
    }
}

/// The input event codes we use, so no other file needs the kernel headers.
public enum InputCode {
    public static let synchronization = UInt16(EV_SYN)
    public static let absolute = UInt16(EV_ABS)
    public static let report = UInt16(SYN_REPORT)
    public static let dropped = UInt16(SYN_DROPPED)
    public static let absX = UInt16(ABS_X)
    public static let absY = UInt16(ABS_Y)
    public static let absZ = UInt16(ABS_Z)
    public static let absRX = UInt16(ABS_RX)
    public static let absRY = UInt16(ABS_RY)
    public static let absRZ = UInt16(ABS_RZ)
    public static let accelerometerProperty = UInt32(INPUT_PROP_ACCELEROMETER)
}

/// One `struct input_event`, its time in seconds on the device's clock.
public struct InputEvent: Equatable, Sendable {
    public var type: UInt16
    public var code: UInt16
    public var value: Int32
    public var time: Double
}

/// `struct input_absinfo`: an absolute axis's range; `resolution` is units per g
/// on an accelerometer (units per mm on other devices).
public struct AbsoluteAxis: Equatable, Sendable {
    public var value: Int32
    public var minimum: Int32
    public var maximum: Int32
    public var resolution: Int32
}

/// An evdev device read through libevdev, which keeps the axis state (and rebuilds
/// it after SYN_DROPPED). It does not own the descriptor it was given.
public final class EvdevDevice {
    let handle: OpaquePointer

    public init(descriptor: FileDescriptor) throws(Errno) {
        var handle: OpaquePointer?
        let result = libevdev_new_from_fd(descriptor.rawValue, &handle)
        guard result == 0, let handle else { throw Errno(rawValue: result < 0 ? -result : Errno.ioError.rawValue) }
        self.handle = handle
    }

    deinit { libevdev_free(handle) }

    public var name: String { libevdev_get_name(handle).map { String(cString: $0) } ?? "" }

    public func hasProperty(_ property: UInt32) -> Bool { libevdev_has_property(handle, property) == 1 }

    public func hasCode(type: UInt16, code: UInt16) -> Bool {
        libevdev_has_event_code(handle, UInt32(type), UInt32(code)) == 1
    }

    public func absoluteAxis(_ code: UInt16) -> AbsoluteAxis? {
        guard let info = libevdev_get_abs_info(handle, UInt32(code))?.pointee else { return nil }
        return AbsoluteAxis(value: info.value, minimum: info.minimum, maximum: info.maximum,
                            resolution: info.resolution)
    }

    /// The current state of a code, as of the events read so far.
    public func value(type: UInt16, code: UInt16) -> Int32 {
        libevdev_get_event_value(handle, UInt32(type), UInt32(code))
    }

    /// Asks the kernel for CLOCK_MONOTONIC event times (EVIOCSCLOCKID); false if it refused.
    public func useMonotonicClock() -> Bool {
        libevdev_set_clock_id(handle, CLOCK_MONOTONIC) == 0
    }

    public enum ReadMode: Sendable { case normal, sync }

    public enum ReadStatus: Sendable {
        /// An event as the kernel sent it.
        case success
        /// Normal mode: the SYN_DROPPED that starts a resync. Sync mode: a resync event.
        case sync
    }

    /// The next event; nil when none is waiting (EAGAIN). ENODEV means the device is gone.
    public func next(_ mode: ReadMode) throws(Errno) -> (ReadStatus, InputEvent)? {
        var event = input_event()
        let flag = mode == .normal ? LIBEVDEV_READ_FLAG_NORMAL : LIBEVDEV_READ_FLAG_SYNC
        let result = libevdev_next_event(handle, flag.rawValue, &event)
        if result == -EAGAIN { return nil }
        guard result >= 0 else { throw Errno(rawValue: -result) }
        let status: ReadStatus = result == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) ? .sync : .success
        let time = Double(event.time.tv_sec) + Double(event.time.tv_usec) / 1e6
        return (status, InputEvent(type: event.type, code: event.code, value: event.value, time: time))
    }
}
