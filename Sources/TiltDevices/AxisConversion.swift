// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore

/// An evdev accelerometer's three axis values to m/s² in the sensor's frame: each
/// centred (`EvdevAxes.centre`) and scaled by its resolution; where the driver states
/// none, by the range (±2 g) until gravity at rest gives the scale
/// (`GravityCalibration`; docs/sensors.md, "evdev").
public struct AxisConversion: Sendable {
    private let centres: [Double]
    private var scales: [Double]
    private var calibration: GravityCalibration?

    /// `axes`: x, y and z, as the node's absinfo gives them.
    public init(axes: [AbsoluteAxis]) {
        precondition(axes.count == 3, "three axes")
        centres = axes.map(EvdevAxes.centre)
        scales = axes.map(EvdevAxes.scale)
        calibration = axes.contains { $0.resolution <= 0 } ? GravityCalibration() : nil
    }

    /// Whether the scale is still to be found from gravity.
    public var awaitsGravity: Bool { calibration != nil }

    /// The reading at `time` (seconds) in m/s², and the units per g when this value
    /// completed the calibration (then it is scaled by them).
    public mutating func convert(_ values: [Int32], at time: Double) -> (acceleration: Vector3, calibrated: Double?) {
        let centred = zip(values, centres).map { Double($0) - $1 }
        let reading = Vector3(centred[0], centred[1], centred[2])
        var calibrated: Double?
        if calibration != nil, let unitsPerG = calibration?.take(reading, at: time) {
            calibration = nil
            scales = Array(repeating: standardGravity / unitsPerG, count: 3)
            calibrated = unitsPerG
        }
        return (Vector3(reading.x * scales[0], reading.y * scales[1], reading.z * scales[2]), calibrated)
    }
}
