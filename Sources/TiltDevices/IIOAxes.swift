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

    /// The channels, `accel_x`, `accel_y` and (but on two-axis chips) `accel_z`.
    let channels: [String]
    let axes: [Axis]
    /// Each channel's `in_accel_*_raw`, for polled reads; none for axes made by a test.
    let rawFiles: [String]

    /// Axes whose values come from elsewhere than sysfs (tests).
    init(axes: [Axis]) {
        channels = Array(["accel_x", "accel_y", "accel_z"].prefix(axes.count))
        self.axes = axes
        rawFiles = []
    }

    /// The device's accelerometer channels, their scale and offset read from sysfs
    /// (`IIOAttributes`: per axis, else shared); an error when x or y is missing.
    init(attributes: IIOAttributes, deviceID: String) throws(SensorError) {
        var channels: [String] = []
        var axes: [Axis] = []
        var rawFiles: [String] = []
        for id in ["accel_x", "accel_y", "accel_z"] {
            guard attributes.hasChannel(id) else {
                // Two-axis chips (MXC6255) measure the screen's plane only: enough to tilt.
                if id == "accel_z" { break }
                throw SensorError("\(deviceID) has no \(id) channel: not an accelerometer")
            }
            channels.append(id)
            axes.append(Axis(scale: try attributes.number(id, "scale", default: 1),
                             offset: try attributes.number(id, "offset", default: 0)))
            rawFiles.append(attributes.channelFile(id, "raw") ?? attributes.directory + "/in_\(id)_raw")
        }
        self.channels = channels
        self.axes = axes
        self.rawFiles = rawFiles
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
        try rawFiles.map { (file: String) throws(Errno) -> Double in try Self.readRaw(file) }
    }

    static func readRaw(_ file: String) throws(Errno) -> Double {
        if let fault = Syscall.faultCheck("read IIO raw") { throw fault }
        guard let value = try SysfsFile.value(file).sysfsNumber else { throw Errno.ioError }
        return value
    }
}
