// SPDX-License-Identifier: GPL-3.0-or-later
/// An accelerometer found by discovery or announced by hotplug, before it is opened.
public struct SensorCandidate: Sendable, Equatable {
    public var info: SensorInfo
    /// The kernel's name: `iio:device0`, `event3`.
    public var sysname: String
    /// What was odd about it (an unreadable mount matrix…), for `tiltpuzzle sensors`.
    public var notes: [String]
    /// A game controller's motion sensors (evdev over USB or Bluetooth): first in the
    /// order of preference (docs/sensors.md).
    public var isController: Bool
    /// A right Joy-Con's IMU, ordered after the left one (docs/sensors.md, "A Joy-Con pair").
    public var isRightJoyCon: Bool

    public init(info: SensorInfo, sysname: String, notes: [String] = [], isController: Bool = false,
                isRightJoyCon: Bool = false) {
        self.info = info
        self.sysname = sysname
        self.notes = notes
        self.isController = isController
        self.isRightJoyCon = isRightJoyCon
    }

    /// In the keyboard base of a convertible (ACCEL_LOCATION=base or label accel-base): not used.
    public var isBase: Bool { info.location == "base" }

    /// A source for it, not yet started.
    public func makeSource() -> SensorSource {
        switch info.kind {
        case .iio: IIOSource(deviceID: sysname, info: info)
        case .evdev: EvdevSource(path: info.deviceNode ?? "/dev/input/\(sysname)", info: info)
        case .replay: ReplaySource(path: info.name)   // discovery never finds one; for completeness
        }
    }
}
