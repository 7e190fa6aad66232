// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore

/// Which absolute axes of an evdev node are its accelerometer, and how their values
/// become units of g (docs/sensors.md, "evdev").
///
/// Most drivers put the accelerometer on ABS_X/Y/Z (a game controller's gyroscope then
/// sits on ABS_RX/RY/RZ beside it). hid-wiimote gives the Wii Remote's accelerometer a
/// node of its own with ABS_RX/RY/RZ only, and its Motion Plus gyroscope another node
/// with the same three axes: the axes say where the readings are, the driver's name for
/// the node (or INPUT_PROP_ACCELEROMETER) says they are accelerations.
public enum EvdevAxes: Equatable, Sendable {
    /// ABS_X, ABS_Y, ABS_Z.
    case linear
    /// ABS_RX, ABS_RY, ABS_RZ, on a node that has no ABS_X/Y/Z.
    case rotational

    /// The codes of the three axes, x first.
    public var codes: [UInt16] {
        switch self {
        case .linear: [InputCode.absX, InputCode.absY, InputCode.absZ]
        case .rotational: [InputCode.absRX, InputCode.absRY, InputCode.absRZ]
        }
    }

    /// The axes a node's accelerometer is on, from the axes it has; nil if it has none
    /// that can be. RX/RY/RZ alone count only on a node that says it measures
    /// acceleration (the property, or a driver's name ending in "Accelerometer", as
    /// hid-wiimote's "Nintendo Wii Remote Accelerometer"): the same three axes are a
    /// gyroscope's on the Motion Plus node.
    public static func choose(hasLinear: Bool, hasRotational: Bool, accelerometerProperty: Bool,
                              name: String) -> EvdevAxes? {
        if hasLinear { return .linear }
        guard hasRotational, accelerometerProperty || name.hasSuffix("Accelerometer") else { return nil }
        return .rotational
    }

    /// The value of an axis at 0 g: 0 for a range that spans zero (signed readings);
    /// the middle of a range that does not (a driver passing unsigned readings on).
    public static func centre(_ axis: AbsoluteAxis) -> Double {
        guard axis.minimum >= 0 || axis.maximum <= 0, axis.maximum > axis.minimum else { return 0 }
        return (Double(axis.minimum) + Double(axis.maximum)) / 2
    }

    /// m/s² per unit of an axis. The kernel gives accelerometer resolution in units per
    /// g; for a driver that leaves it 0, the half range about the centre is taken as
    /// 2 g, until gravity at rest tells (`GravityCalibration`).
    public static func scale(_ axis: AbsoluteAxis) -> Double {
        if axis.resolution > 0 { return standardGravity / Double(axis.resolution) }
        let centre = centre(axis)
        let halfRange = max(abs(Double(axis.minimum) - centre), abs(Double(axis.maximum) - centre))
        return halfRange > 0 ? 2 * standardGravity / halfRange : standardGravity
    }
}
