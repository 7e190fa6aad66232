// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem

/// libiio's side of an IIO device, for buffered capture only (`BufferCapture`): its
/// context (released with this), the device, and the axes' channels, found by the ids
/// sysfs gave (`SysfsIIODevice`), whose axes, journal and removal check it shares.
/// Opening it loads libiio (docs/performance.md, memory).
final class LibIIODevice {
    /// `iio:deviceN`.
    let deviceID: String
    let context: IIOContext
    let device: IIODevice
    /// The axes' channels, in the order of `axes`.
    let channels: [IIOChannel]
    let axes: IIOAxes
    /// `/sys/bus/iio/devices/iio:deviceN`, where libiio writes.
    let sysfsDirectory: String
    let journal: SysfsJournal
    let isGone: @Sendable () -> Bool

    init(_ sysfs: SysfsIIODevice) throws(SensorError) {
        do {
            context = try IIOContext()
        } catch .libraryUnavailable(let reason) {
            throw SensorError(IIOError.libraryUnavailable(reason).description)
        } catch {
            throw SensorError("cannot open the IIO devices: \(error)")
        }
        deviceID = sysfs.deviceID
        guard let device = context.device(deviceID) else { throw SensorError("libiio has no IIO device \(deviceID)") }
        self.device = device
        var channels: [IIOChannel] = []
        for id in sysfs.axes.channels {
            guard let channel = device.channel(id) else { throw SensorError("libiio has no \(id) channel on \(deviceID)") }
            channels.append(channel)
        }
        self.channels = channels
        axes = sysfs.axes
        sysfsDirectory = sysfs.sysfsDirectory
        journal = sysfs.journal
        isGone = sysfs.isGoneCheck
    }
}
