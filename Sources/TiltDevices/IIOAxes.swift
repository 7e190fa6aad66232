// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSystem

/// An IIO accelerometer's x, y and z channels (or x and y) with their scale and
/// offset: how raw values become a sample in m/s², in the sensor's frame (the source
/// applies the mount matrix; docs/sensors.md, IIO).
struct IIOAxes {
    /// One axis's scale and offset.
    struct Axis: Equatable {
        var scale: Double
        var offset: Double

        func value(_ raw: Double) -> Double { (raw + offset) * scale }
    }

    /// x, y and z (or x and y), as libiio has them; none for values from elsewhere.
    let channels: [IIOChannel]
    let axes: [Axis]

    /// Axes whose values come from elsewhere than libiio's channels (tests).
    init(axes: [Axis]) {
        channels = []
        self.axes = axes
    }

    /// The device's accelerometer channels; an error when x or y is missing.
    init(device: IIODevice, deviceID: String) throws(SensorError) {
        var channels: [IIOChannel] = []
        var axes: [Axis] = []
        for id in ["accel_x", "accel_y", "accel_z"] {
            guard let channel = device.channel(id) else {
                // Two-axis chips (MXC6255) measure the screen's plane only: enough to tilt.
                if id == "accel_z" { break }
                throw SensorError("\(deviceID) has no \(id) channel: not an accelerometer")
            }
            channels.append(channel)
            axes.append(Axis(scale: try Self.number(channel, "scale", default: 1),
                             offset: try Self.number(channel, "offset", default: 0)))
        }
        self.channels = channels
        self.axes = axes
    }

    /// `raw` x, y, z (or x, y) as a sample.
    func sample(_ raw: [Double], time: Double) -> Sample {
        let x = axes[0].value(raw[0]), y = axes[1].value(raw[1])
        let z = axes.count > 2 ? axes[2].value(raw[2]) : Self.planeZ(x, y)
        return Sample(time: time, acceleration: Vector3(x, y, z))
    }

    /// A two-axis chip's missing z: what 1 g leaves after x and y, the screen facing up
    /// (0 when x and y already reach 1 g, so an in-plane knock still exceeds it:
    /// docs/tilt-detection.md, "Two-axis sensors").
    static func planeZ(_ x: Double, _ y: Double) -> Double {
        let rest = standardGravity * standardGravity - x * x - y * y
        return rest > 0 ? rest.squareRoot() : 0
    }

    /// Each axis's `in_accel_*_raw`, read now. (`Syscall` name "read IIO raw", for
    /// tests to play a driver that refuses raw reads while another program has its buffer.)
    func readRaw() throws(Errno) -> [Double] {
        try channels.map { (channel: IIOChannel) throws(Errno) -> Double in try Self.readRaw(channel) }
    }

    static func readRaw(_ channel: IIOChannel) throws(Errno) -> Double {
        if let fault = Syscall.faultCheck("read IIO raw") { throw fault }
        guard let value = try channel.attribute("raw").sysfsNumber else { throw Errno.ioError }
        return value
    }

    private static func number(_ channel: IIOChannel, _ attribute: String, default value: Double) throws(SensorError) -> Double {
        guard channel.hasAttribute(attribute) else { return value }
        let file = channel.attributeFile(attribute) ?? attribute
        guard let text = try? channel.attribute(attribute) else { throw SensorError("cannot read \(file)") }
        guard let number = text.sysfsNumber else { throw SensorError("\(file) is not a number: '\(text)'") }
        return number
    }
}
