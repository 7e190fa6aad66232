import TiltDevices

/// Opens a live accelerometer (IIO or evdev) for a source spec.
enum DeviceSources {
    static func open(_ spec: String) -> Result<SensorSource, SensorError>? {
        // Device discovery is not wired in yet: only replay sources exist.
        nil
    }
}
