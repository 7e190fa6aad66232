// SPDX-License-Identifier: GPL-3.0-or-later
import CUdev
import TiltSystem

/// The libudev wrapper: the only file that imports CUdev.
public final class UdevContext {
    let handle: OpaquePointer

    public init?() {
        guard let handle = udev_new() else { return nil }
        self.handle = handle
    }

    deinit { udev_unref(handle) }

    /// The devices of these subsystems present now, in syspath order.
    public func devices(subsystems: [String]) -> [UdevDevice] {
        guard let enumerate = udev_enumerate_new(handle) else { return [] }
        defer { udev_enumerate_unref(enumerate) }
        for subsystem in subsystems { udev_enumerate_add_match_subsystem(enumerate, subsystem) }
        udev_enumerate_scan_devices(enumerate)
        var paths: [String] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            if let name = udev_list_entry_get_name(current) { paths.append(String(cString: name)) }
            entry = udev_list_entry_get_next(current)
        }
        return paths.sorted().compactMap { device(syspath: $0) }
    }

    public func device(syspath: String) -> UdevDevice? {
        udev_device_new_from_syspath(handle, syspath).map(UdevDevice.init(owning:))
    }
}

/// A device as udev knows it: sysfs path, node, properties and attributes.
public final class UdevDevice {
    let handle: OpaquePointer

    init(owning handle: OpaquePointer) { self.handle = handle }

    deinit { udev_device_unref(handle) }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    public var syspath: String { Self.string(udev_device_get_syspath(handle)) ?? "" }
    public var sysname: String { Self.string(udev_device_get_sysname(handle)) ?? "" }
    public var subsystem: String? { Self.string(udev_device_get_subsystem(handle)) }
    public var devnode: String? { Self.string(udev_device_get_devnode(handle)) }
    /// For monitor events: `add`, `remove`, `change`, `bind`…
    public var action: String? { Self.string(udev_device_get_action(handle)) }

    /// A udev property (`ID_INPUT_ACCELEROMETER`, `ACCEL_MOUNT_MATRIX`…).
    public func property(_ name: String) -> String? {
        Self.string(udev_device_get_property_value(handle, name))
    }

    /// A sysfs attribute, trimmed; `name` may reach into a subdirectory (`scan_elements/in_accel_x_en`).
    public func attribute(_ name: String) -> String? {
        Self.string(udev_device_get_sysattr_value(handle, name))?.trimmingWhitespace
    }

    public var parent: UdevDevice? {
        // The parent belongs to the child; take a reference of our own.
        guard let parent = udev_device_get_parent(handle), let owned = udev_device_ref(parent) else { return nil }
        return UdevDevice(owning: owned)
    }
}

/// udev's event stream (netlink, after udev processed the event), filtered by
/// subsystem, non-blocking.
public final class UdevMonitor {
    let handle: OpaquePointer
    public let descriptor: FileDescriptor

    public init(context: UdevContext, subsystems: [String]) throws(Errno) {
        guard let handle = udev_monitor_new_from_netlink(context.handle, "udev") else { throw Errno.current }
        self.handle = handle
        for subsystem in subsystems {
            _ = udev_monitor_filter_add_match_subsystem_devtype(handle, subsystem, nil)
        }
        descriptor = FileDescriptor(rawValue: udev_monitor_get_fd(handle))
        let enabled = udev_monitor_enable_receiving(handle)
        guard enabled >= 0 else {
            udev_monitor_unref(handle)
            throw Errno(rawValue: -enabled)
        }
        do {
            try descriptor.setNonBlocking()
        } catch {
            udev_monitor_unref(handle)
            throw error
        }
    }

    deinit { udev_monitor_unref(handle) }

    /// The next event's device, or nil when none is waiting.
    public func receive() -> UdevDevice? {
        udev_monitor_receive_device(handle).map(UdevDevice.init(owning:))
    }
}
