// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSystem

/// An IIO device opened for a source: what the source's captures and fallbacks need of
/// it. `SysfsIIODevice` is the kernel's, read through sysfs; tests hand the source
/// their own, so its transitions run without a device.
protocol OpenIIODevice: AnyObject {
    /// The device's `name`, if it has one.
    var name: String? { get }
    /// Whose an enabled buffer is.
    var ownership: BufferOwnership { get }
    /// The driver's data rate.
    var rates: RateControl { get }
    /// Whatever the source changes in sysfs, put back at stop.
    var journal: SysfsJournal { get }
    /// Whether the device has gone (its sysfs directory with it).
    var isGone: Bool { get }
    /// One raw read of the first axis: whether the driver answers raw reads now.
    func probeRaw() throws(Errno)
    /// A sample read from `in_accel_*_raw` now, in the sensor's frame; called on a
    /// polling reader's thread.
    func readSample() throws(Errno) -> Sample
    /// Buffered capture from `now`, when the device allows it; lines for the log either way.
    func startBuffer(samplingRate: Double?, now: Double) -> (capture: (any IIOCapture)?, notes: [String])
}

/// A device read through its sysfs files (`IIOAttributes`): its name, axes, data rate
/// and raw reads, with no library (docs/sensors.md, IIO, "Attributes"). libiio is
/// loaded only when a buffer is to start, and only once sysfs says it can: a polled
/// sensor never loads it (docs/performance.md, memory).
final class SysfsIIODevice: OpenIIODevice {
    /// Opens libiio's side of the device, for buffered capture.
    typealias OpenLibIIO = (SysfsIIODevice) throws(SensorError) -> LibIIODevice

    /// `iio:deviceN`.
    let deviceID: String
    /// `/sys/bus/iio/devices/iio:deviceN`, where attributes are read and written.
    let sysfsDirectory: String
    let attributes: IIOAttributes
    let axes: IIOAxes
    let name: String?
    let ownership: BufferOwnership
    let rates: RateControl
    let journal = SysfsJournal()
    /// Whether the sysfs path udev gave, which goes with the device, has gone.
    let isGoneCheck: @Sendable () -> Bool
    private let openLibIIO: OpenLibIIO
    /// libiio's side, once a buffer was to start.
    private var libiio: LibIIODevice?

    /// Opens `deviceID` (its place from `info`); `sysfsDirectory` is for tests.
    init(deviceID: String, info: SensorInfo, sysfsDirectory: String? = nil,
         openLibIIO: @escaping OpenLibIIO = { (device) throws(SensorError) in try LibIIODevice(device) }) throws(SensorError) {
        let directory = sysfsDirectory ?? "/sys/bus/iio/devices/\(deviceID)"
        guard SysfsFile.exists(directory) else { throw SensorError("no IIO device \(deviceID)") }
        self.deviceID = deviceID
        self.sysfsDirectory = directory
        self.openLibIIO = openLibIIO
        attributes = IIOAttributes(directory: directory)
        axes = try IIOAxes(attributes: attributes, deviceID: deviceID)
        name = attributes.deviceFile("name").flatMap(SysfsFile.read)
        let sysfsPath = info.sysfsPath ?? directory
        isGoneCheck = { !SysfsFile.exists(sysfsPath) }
        ownership = BufferOwnership(deviceID: deviceID, sysfsDirectory: directory,
                                    node: info.deviceNode ?? "/dev/\(deviceID)")
        rates = RateControl(deviceID: deviceID, attribute: RateAttribute.find(attributes: attributes, axes: axes.channels),
                            journal: journal)
    }

    var isGone: Bool { isGoneCheck() }

    func probeRaw() throws(Errno) {
        if let file = axes.rawFiles.first { _ = try IIOAxes.readRaw(file) }
    }

    func readSample() throws(Errno) -> Sample { axes.sample(try axes.readRaw(), time: MonotonicClock.now()) }

    /// Whether the axes are scan elements and a trigger would fire, from sysfs; then
    /// libiio (opened now, the first time) sets up the buffer (`BufferCapture`).
    func startBuffer(samplingRate: Double?, now: Double) -> (capture: (any IIOCapture)?, notes: [String]) {
        guard axes.channels.allSatisfy({ attributes.scanFormat($0) != nil }) else { return (nil, []) }
        let trigger = TriggerPlan.plan(sysfsDirectory: sysfsDirectory, deviceName: name, deviceID: deviceID)
        if trigger == .missing { return (nil, []) }
        let libiio: LibIIODevice
        if let opened = self.libiio {
            libiio = opened
        } else {
            do throws(SensorError) {
                libiio = try openLibIIO(self)
            } catch {
                return (nil, ["\(deviceID): cannot use its buffer (\(error.message)); polling instead"])
            }
            self.libiio = libiio
        }
        let (capture, notes) = BufferCapture.start(libiio, trigger: trigger, samplingRate: samplingRate, now: now)
        return (capture, notes)
    }
}
