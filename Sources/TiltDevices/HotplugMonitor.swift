// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem

/// What the hotplug monitor saw.
public enum HotplugEvent: Sendable, Equatable {
    /// An accelerometer appeared (base ones included: check `isBase`).
    case added(SensorCandidate)
    /// A device that may be the one in use went away. Only udev's properties survive
    /// a removal, so an IIO device is reported whatever its channels were: compare
    /// `info.sysfsPath` or `info.deviceNode` with the source's.
    case removed(SensorCandidate)

    /// Whether this is the removal of the device `info` describes (same sysfs path or node).
    public func removes(_ info: SensorInfo) -> Bool {
        guard case .removed(let gone) = self else { return false }
        return (gone.info.sysfsPath != nil && gone.info.sysfsPath == info.sysfsPath)
            || (gone.info.deviceNode != nil && gone.info.deviceNode == info.deviceNode)
    }
}

/// Watches udev for IIO and input devices coming and going. Non-blocking: the
/// event loop waits for `descriptor` to be readable, then calls `receive()`.
public final class HotplugMonitor {
    private let udev: UdevContext
    private let monitor: UdevMonitor

    public init() throws(SensorError) {
        guard let udev = UdevContext() else { throw SensorError("cannot use udev") }
        do {
            monitor = try UdevMonitor(context: udev, subsystems: SensorDiscovery.subsystems)
        } catch {
            throw SensorError("cannot watch udev events: \(error)")
        }
        self.udev = udev
    }

    /// Readable when events are waiting (owned by the monitor).
    public var descriptor: FileDescriptor { monitor.descriptor }

    /// The events waiting now, in order; other devices' events are dropped.
    public func receive() -> [HotplugEvent] {
        var events: [HotplugEvent] = []
        while let device = monitor.receive() {
            switch device.action {
            case "add"?:
                if let candidate = SensorDiscovery.candidate(device) { events.append(.added(candidate)) }
            case "remove"?:
                if let candidate = SensorDiscovery.candidate(device, removing: true) { events.append(.removed(candidate)) }
            default:
                continue   // change, bind, unbind: the device stays what it was
            }
        }
        return events
    }
}
