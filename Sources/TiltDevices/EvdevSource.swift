// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSystem

/// An evdev accelerometer (`INPUT_PROP_ACCELEROMETER`) through libevdev.
///
/// The node is opened non-blocking and read when readable; each SYN_REPORT gives
/// one sample of the accelerometer's three axes (ABS_X/Y/Z, or ABS_RX/RY/RZ where the
/// driver puts it there: `EvdevAxes`), centred and scaled by the axis resolution (units
/// per g) to m/s², or by gravity at rest where the driver states none
/// (`GravityCalibration`), and taken to the device frame by the mount matrix. After
/// SYN_DROPPED the state is rebuilt (libevdev's sync mode) and the resynced state is
/// one sample.
public final class EvdevSource: SensorSource {
    public let path: String
    public private(set) var info: SensorInfo
    /// The device's own mount matrix, from discovery.
    private let deviceMatrix: Matrix3

    /// Events handled per service call at the most, so the loop stays responsive.
    static let eventsPerService = 4096

    private var descriptor: FileDescriptor?
    private var device: EvdevDevice?
    private var axes = EvdevAxes.linear
    private var conversion: AxisConversion?
    private var monotonicTimes = false
    private var syncing = false
    private var warnings: [String] = []

    /// `info` from discovery carries the sysfs path, name and mount matrix.
    public init(path: String, info: SensorInfo? = nil) {
        self.path = path
        self.info = info ?? SensorInfo(kind: .evdev, name: path, deviceNode: path)
        deviceMatrix = self.info.mountMatrix
    }

    /// m/s² per unit of an axis before any calibration (`EvdevAxes.scale`).
    public static func scale(_ axis: AbsoluteAxis) -> Double { EvdevAxes.scale(axis) }

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
        func has(_ kind: EvdevAxes) -> Bool { kind.codes.allSatisfy { device.hasCode(type: InputCode.absolute, code: $0) } }
        let marked = device.hasProperty(InputCode.accelerometerProperty)
        guard let chosen = EvdevAxes.choose(hasLinear: has(.linear), hasRotational: has(.rotational),
                                            accelerometerProperty: marked, name: device.name),
              case let found = chosen.codes.compactMap(device.absoluteAxis), found.count == 3 else {
            try? fd.close()
            throw SensorError("\(path) has no ABS_X, ABS_Y and ABS_Z (nor an accelerometer's ABS_RX/RY/RZ): "
                              + "not an accelerometer")
        }
        let conversion = AxisConversion(axes: found)
        if conversion.awaitsGravity {
            warnings.append("\(path): axis resolution 0; taking the axis range as ±2 g until it rests")
        }
        if !marked {
            warnings.append("\(path) does not say it is an accelerometer (INPUT_PROP_ACCELEROMETER)")
        }
        axes = chosen
        self.conversion = conversion
        if info.name == path, !device.name.isEmpty { info.name = device.name }
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
        // What the samples taught (a scale from gravity) is said with them.
        events += warnings.map(SensorEvent.warning)
        warnings = []
        if !samples.isEmpty { events.append(.samples(samples)) }
        return events
    }

    public func setMountMatrix(_ configured: Matrix3?) {
        info.mountMatrix = MountMatrix.chosen(configured: configured, device: deviceMatrix)
    }

    private func sample(_ device: EvdevDevice, time: Double) -> Sample {
        let values = axes.codes.map { device.value(type: InputCode.absolute, code: $0) }
        let (sensor, calibrated) = conversion?.convert(values, at: time) ?? (Vector3.zero, nil)
        if let calibrated {
            warnings.append("\(path): calibrated by gravity at rest: \(Int(calibrated.rounded())) units per g")
        }
        return Sample(time: time, acceleration: info.mountMatrix * sensor)
    }

    /// A read error: the device is gone (ENODEV, or its sysfs directory vanished) or broken.
    private func end(_ error: Errno) -> SensorEvent {
        let gone = error == .noSuchDevice || info.sysfsPath.map { !SysfsFile.exists($0) } == true
        stop()
        return gone ? .removed : .failed("\(path): read failed: \(error)")
    }
}
