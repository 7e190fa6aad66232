import CEvdev

/// The libevdev wrapper: the only file that imports CEvdev.
public enum LibEvdev {
    /// The kernel's name of an event type, e.g. "EV_ABS" for 3.
    public static func eventTypeName(_ type: UInt32) -> String? {
        libevdev_event_type_get_name(type).map { String(cString: $0) }
    }
}
