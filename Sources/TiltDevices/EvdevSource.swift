import TiltCore
import TiltSystem

/// An evdev accelerometer (`INPUT_PROP_ACCELEROMETER`) through libevdev.
///
/// The node is opened non-blocking and read when readable; each SYN_REPORT gives
/// one sample of ABS_X/Y/Z, scaled by the axis resolution (units per g) to m/s²
/// and taken to the device frame by the mount matrix. After SYN_DROPPED the state
/// is rebuilt (libevdev's sync mode) and the resynced state is one sample.
public final class EvdevSource: SensorSource {
    public let path: String
    public private(set) var info: SensorInfo

    /// Events handled per service call at the most, so the loop stays responsive.
    static let eventsPerService = 4096

    private var descriptor: FileDescriptor?
    private var device: EvdevDevice?
    private var scales: [Double] = []
    private var monotonicTimes = false
    private var syncing = false
    private var warnings: [String] = []

    /// `info` from discovery carries the sysfs path, name and mount matrix.
    public init(path: String, info: SensorInfo? = nil) {
        self.path = path
        self.info = info ?? SensorInfo(kind: .evdev, name: path, deviceNode: path)
    }

    /// m/s² per unit of an axis. The kernel gives accelerometer resolution in units
    /// per g; drivers that leave it 0 get the common ±2 g full scale: the larger of
    /// |minimum| and |maximum| is taken as 2 g (docs/sensors.md).
    public static func scale(_ axis: AbsoluteAxis) -> Double {
        if axis.resolution > 0 { return standardGravity / Double(axis.resolution) }
        let fullScale = max(abs(Double(axis.minimum)), abs(Double(axis.maximum)))
        return fullScale > 0 ? 2 * standardGravity / fullScale : standardGravity
    }

    public func start() throws(SensorError) {
        stop()
        warnings = []
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, .nonBlocking)
        } catch {
            throw SensorError("cannot open \(path): \(error)")
        }
        let device: EvdevDevice
        do {
            device = try EvdevDevice(descriptor: fd)
        } catch {
            try? fd.close()
            throw SensorError("\(path) is not an evdev device: \(error)")
        }
        var axes: [AbsoluteAxis] = []
        for code in [InputCode.absX, InputCode.absY, InputCode.absZ] {
            guard device.hasCode(type: InputCode.absolute, code: code), let axis = device.absoluteAxis(code) else {
                try? fd.close()
                throw SensorError("\(path) has no ABS_X, ABS_Y and ABS_Z: not an accelerometer")
            }
            axes.append(axis)
        }
        if axes.contains(where: { $0.resolution <= 0 }) {
            warnings.append("\(path): axis resolution 0; taking the axis range as ±2 g")
        }
        if !device.hasProperty(InputCode.accelerometerProperty) {
            warnings.append("\(path) does not say it is an accelerometer (INPUT_PROP_ACCELEROMETER)")
        }
        if info.name == path, !device.name.isEmpty { info.name = device.name }
        scales = axes.map(Self.scale)
        // Without EVIOCSCLOCKID event times are wall-clock: read our clock instead.
        monotonicTimes = device.useMonotonicClock()
        syncing = false
        self.descriptor = fd
        self.device = device
    }

    public func stop() {
        device = nil
        try? descriptor?.close()
        descriptor = nil
    }

    public var wait: SensorWait {
        descriptor.map(SensorWait.readable) ?? .idle
    }

    public func service(now: Double) -> [SensorEvent] {
        var events = warnings.map(SensorEvent.warning)
        warnings = []
        guard let device else { return events }
        var samples: [Sample] = []
        var handled = 0
        reading: while handled < Self.eventsPerService {
            let next: (EvdevDevice.ReadStatus, InputEvent)?
            do {
                next = try device.next(syncing ? .sync : .normal)
            } catch {
                if !samples.isEmpty { events.append(.samples(samples)) }
                return events + [end(error)]
            }
            guard let (status, event) = next else {
                if syncing {
                    syncing = false   // resync complete: back to the live stream
                    continue
                }
                break reading
            }
            handled += 1
            if status == .sync, !syncing {
                syncing = true   // SYN_DROPPED: events were lost; rebuild the state
                continue
            }
            if event.type == InputCode.synchronization, event.code == InputCode.report {
                samples.append(sample(device, time: monotonicTimes ? event.time : MonotonicClock.now()))
            }
        }
        if handled == 0, let sysfsPath = info.sysfsPath, !SysfsFile.exists(sysfsPath) {
            stop()
            return events + [.removed]
        }
        if !samples.isEmpty { events.append(.samples(samples)) }
        return events
    }

    private func sample(_ device: EvdevDevice, time: Double) -> Sample {
        let raw = [InputCode.absX, InputCode.absY, InputCode.absZ].map {
            Double(device.value(type: InputCode.absolute, code: $0))
        }
        let sensor = Vector3(raw[0] * scales[0], raw[1] * scales[1], raw[2] * scales[2])
        return Sample(time: time, acceleration: info.mountMatrix * sensor)
    }

    /// A read error: the device is gone (ENODEV, or its sysfs directory vanished) or broken.
    private func end(_ error: Errno) -> SensorEvent {
        let gone = error == .noSuchDevice || info.sysfsPath.map { !SysfsFile.exists($0) } == true
        stop()
        return gone ? .removed : .failed("\(path): read failed: \(error)")
    }
}
