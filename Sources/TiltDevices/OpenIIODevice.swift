// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSystem

/// An IIO device opened for a source: what the source's captures and fallbacks need of
/// it. `LibIIODevice` is libiio's; tests hand the source their own, so its transitions
/// run without a device.
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

/// A device through libiio's local backend: its context (released with this), the
/// device, its axes.
final class LibIIODevice: OpenIIODevice {
    /// `iio:deviceN`.
    let deviceID: String
    let context: IIOContext
    let device: IIODevice
    let axes: IIOAxes
    /// `/sys/bus/iio/devices/iio:deviceN`, where libiio writes.
    let sysfsDirectory: String
    /// The sysfs path udev gave, which goes with the device.
    let sysfsPath: String
    let ownership: BufferOwnership
    let rates: RateControl
    let journal = SysfsJournal()

    /// Opens `deviceID` (its place from `info`).
    init(deviceID: String, info: SensorInfo) throws(SensorError) {
        do {
            context = try IIOContext()
        } catch .libraryUnavailable(let reason) {
            throw SensorError(IIOError.libraryUnavailable(reason).description)
        } catch {
            throw SensorError("cannot open the IIO devices: \(error)")
        }
        guard let device = context.device(deviceID) else { throw SensorError("no IIO device \(deviceID)") }
        self.deviceID = deviceID
        self.device = device
        axes = try IIOAxes(device: device, deviceID: deviceID)
        sysfsDirectory = "/sys/bus/iio/devices/\(deviceID)"
        sysfsPath = info.sysfsPath ?? sysfsDirectory
        ownership = BufferOwnership(deviceID: deviceID, sysfsDirectory: sysfsDirectory,
                                    node: info.deviceNode ?? "/dev/\(deviceID)")
        rates = RateControl(deviceID: deviceID, attribute: RateAttribute.find(device: device, axes: axes.channels),
                            journal: journal)
    }

    var name: String? { device.name }
    var isGone: Bool { !SysfsFile.exists(sysfsPath) }

    func probeRaw() throws(Errno) { _ = try IIOAxes.readRaw(axes.channels[0]) }

    func readSample() throws(Errno) -> Sample { axes.sample(try axes.readRaw(), time: MonotonicClock.now()) }

    func startBuffer(samplingRate: Double?, now: Double) -> (capture: (any IIOCapture)?, notes: [String]) {
        let (capture, notes) = BufferCapture.start(self, samplingRate: samplingRate, now: now)
        return (capture, notes)
    }
}
