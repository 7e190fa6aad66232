// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltCore
@testable import TiltDevices
#if canImport(Glibc)
import Glibc
#endif

/// An evdev accelerometer as its driver sets it up, written from the driver's source:
/// the input device's name and modalias, its bus, the accelerometer axes' absinfo, and
/// how the driver reports the reaction to gravity in its own frame.
struct RecordedAccelerometer: Sendable, CustomStringConvertible {
    var name: String
    var modalias: String
    /// `id/bustype` as sysfs prints it.
    var bus: String
    /// The accelerometer's three axes alike (ABS_X/Y/Z, or ABS_RX/RY/RZ: `axes`).
    var axis: AbsoluteAxis
    var axes: EvdevAxes = .linear
    /// INPUT_PROP_ACCELEROMETER.
    var marked = true
    /// Units per g the hardware reads (the resolution, where the driver states it).
    var unitsPerG: Double
    /// The driver's reading for the reaction to gravity `up`, given in the frame of a
    /// tablet held as this controller is held in its default pose (x right, y the far
    /// edge, z out of the face), in g.
    var driverFrame: @Sendable (Vector3) -> Vector3
    var description: String { name }

    /// hid-playstation and hid-sony: x to the right, y out of the face, z towards the
    /// player (docs/sensors.md); ±4 g at 8192 per g (DS_ACC_RANGE, DS4_ACC_RANGE),
    /// fuzz 16, and the driver's version patch (0x8000) in the modalias.
    static func sony(_ name: String, bus: String, product: String) -> RecordedAccelerometer {
        RecordedAccelerometer(name: name, modalias: "input:b\(bus)v054Cp\(product)e8100-e0,3,4,kra0,1,2,3,4,5,m5,lsfw",
                              bus: bus, axis: AbsoluteAxis(value: 0, minimum: -32768, maximum: 32768, resolution: 8192),
                              unitsPerG: 8192, driverFrame: { Vector3($0.x, $0.z, -$0.y) })
    }

    static let dualSenseUSB = sony("Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors",
                                   bus: "0003", product: "0CE6")
    static let dualSenseBluetooth = sony("DualSense Wireless Controller Motion Sensors", bus: "0005", product: "0CE6")
    static let dualShock4USB = sony("Sony Computer Entertainment Wireless Controller Motion Sensors",
                                    bus: "0003", product: "05C4")
    static let dualShock4v2Bluetooth = sony("Wireless Controller Motion Sensors", bus: "0005", product: "09CC")
    /// hid-sony's Sixaxis and DualShock 3 (sony_register_sensors): -512 to 511 at
    /// SIXAXIS_ACC_RES_PER_G (113), fuzz 4; sixaxis_parse_report swaps Y and Z and
    /// negates them, which turns the chip's frame into the DualShock 4's.
    static func dualShock3(_ name: String, bus: String) -> RecordedAccelerometer {
        RecordedAccelerometer(name: name, modalias: "input:b\(bus)v054Cp0268e8111-e0,3,kra0,1,2,mlsfw", bus: bus,
                              axis: AbsoluteAxis(value: 0, minimum: -512, maximum: 511, resolution: 113),
                              unitsPerG: 113, driverFrame: { Vector3($0.x, $0.z, -$0.y) })
    }
    static let dualShock3USB = dualShock3("Sony PLAYSTATION(R)3 Controller Motion Sensors", bus: "0003")
    static let dualShock3Bluetooth = dualShock3("Sony PLAYSTATION(R)3 Controller Motion Sensors", bus: "0005")

    /// hid-nintendo's IMU node (joycon_input_create): ±32767 at JC_IMU_ACCEL_RES_PER_G
    /// (4096), fuzz 10, gyroscope on RX/RY/RZ, INPUT_PROP_ACCELEROMETER; its frame
    /// (joycon_parse_imu_report): X towards the triggers, Y to the left, Z out of the face.
    static func nintendo(_ name: String, bus: String, product: String,
                         frame: @escaping @Sendable (Vector3) -> Vector3) -> RecordedAccelerometer {
        RecordedAccelerometer(name: name, modalias: "input:b\(bus)v057Ep\(product)e8111-e0,3,4,kra0,1,2,3,4,5,m5,lsfw",
                              bus: bus, axis: AbsoluteAxis(value: 0, minimum: -32767, maximum: 32767, resolution: 4096),
                              unitsPerG: 4096, driverFrame: frame)
    }
    /// Held by its grips: the triggers are the far edge, its left is the tablet's left.
    static let proControllerUSB = nintendo("Nintendo Switch Pro Controller IMU", bus: "0003", product: "2009",
                                           frame: { Vector3($0.y, -$0.x, $0.z) })
    static let proControllerBluetooth = nintendo("Nintendo Switch Pro Controller IMU", bus: "0005", product: "2009",
                                                 frame: { Vector3($0.y, -$0.x, $0.z) })
    /// Sideways, the rail (SL, SR) away from the player: the left Joy-Con's triggers
    /// point left and its left side towards the player.
    static let leftJoyCon = nintendo("Nintendo Switch Left Joy-Con IMU", bus: "0005", product: "2006",
                                     frame: { Vector3(-$0.x, -$0.y, $0.z) })
    /// Sideways: the right Joy-Con's triggers point right, its left side (the rail,
    /// after the driver's negation of Y and Z) away from the player.
    static let rightJoyCon = nintendo("Nintendo Switch Right Joy-Con IMU", bus: "0005", product: "2007",
                                      frame: { Vector3($0.x, $0.y, $0.z) })
    /// The Charging Grip holds both halves upright, as a Pro Controller.
    static let gripLeft = nintendo("Nintendo Switch Left Joy-Con IMU (Grip)", bus: "0003", product: "200E",
                                   frame: { Vector3($0.y, -$0.x, $0.z) })
    static let gripRight = nintendo("Nintendo Switch Right Joy-Con IMU (Grip)", bus: "0003", product: "200E",
                                    frame: { Vector3($0.y, -$0.x, $0.z) })

    /// hid-wiimote's accelerometer node (wiimod_accel_probe): ABS_RX/RY/RZ from -500 to
    /// 500, fuzz 2, flat 4, no resolution, no INPUT_PROP_ACCELEROMETER; the chip's 10-bit
    /// readings minus 0x200, about 104 per g (a Wii Remote lying face up reads 616 on Z).
    /// Its frame: +X its left side, +Y the pointing end, +Z out of the face. Held
    /// sideways, the pointing end to the left: the pointing end is the tablet's left and
    /// the remote's left side is towards the player.
    static let wiiRemote = RecordedAccelerometer(
        name: "Nintendo Wii Remote Accelerometer", modalias: "input:b0005v057Ep0306e8600-e0,3,kra3,4,5,mlsfw", bus: "0005",
        axis: AbsoluteAxis(value: 0, minimum: -500, maximum: 500, resolution: 0), axes: .rotational, marked: false,
        unitsPerG: 104, driverFrame: { Vector3(-$0.y, -$0.x, $0.z) })

    /// lis3lv02d: BUS_HOST, values in mg, no resolution (a 12-bit LIS3LV02DL: ±2048 × 1000/1024).
    static let lis3lv02d = RecordedAccelerometer(name: "ST LIS3LV02DL Accelerometer",
                                                 modalias: "input:b0019v0000p0000e0000-e0,3,kra0,1,2,mlsfw", bus: "0019",
                                                 axis: AbsoluteAxis(value: 0, minimum: -2000, maximum: 2000, resolution: 0),
                                                 unitsPerG: 1000, driverFrame: { $0 })

    static let controllers = [dualSenseUSB, dualSenseBluetooth, dualShock4USB, dualShock4v2Bluetooth, dualShock3USB,
                              dualShock3Bluetooth, proControllerUSB, proControllerBluetooth, leftJoyCon, rightJoyCon,
                              gripLeft, gripRight, wiiRemote]
}

/// The frame: a controller held as players hold it plays like a tablet held the same
/// way, through the matrix our hwdb gives it (udev/61-tiltpuzzle-controllers.hwdb;
/// docs/sensors.md, "Game controllers").
@Suite struct ControllerFrameTests {
    static let hwdbPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("udev/61-tiltpuzzle-controllers.hwdb").path

    /// The ACCEL_MOUNT_MATRIX the hwdb gives a device, looked up as 70-tiltpuzzle.rules
    /// asks udev to (`sensor:modalias:<modalias>:<dmi>`), with udev's glob matching.
    static func hwdbMatrix(modalias: String) throws -> String? {
        let key = "sensor:modalias:\(modalias):dmi:bvnLENOVO:"
        var matched = false, inProperties = false
        var matrix: String?
        for line in try String(contentsOfFile: hwdbPath, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") { continue }
            if line.isEmpty { matched = false; inProperties = false; continue }
            if line.hasPrefix(" ") {
                inProperties = true
                if matched, line.hasPrefix(" ACCEL_MOUNT_MATRIX=") { matrix = String(line.dropFirst(" ACCEL_MOUNT_MATRIX=".count)) }
            } else {
                // A match line after properties starts another record (the file keeps
                // a blank line between records; systemd-hwdb --strict checks that).
                if inProperties { matched = false; inProperties = false }
                if fnmatch(String(line), key, 0) == 0 { matched = true }
            }
        }
        return matrix
    }

    static func matrix(_ device: RecordedAccelerometer) throws -> Matrix3 {
        try hwdbMatrix(modalias: device.modalias).map { text throws(SensorError) in try MountMatrix.parse(text) } ?? .identity
    }

    /// The reaction to gravity, in the frame of a tablet held as the controller is:
    /// `right` lowers the right grip, `far` the far edge (negative: raises it, the pose
    /// players hold), in degrees.
    static func up(right: Double, far: Double) -> Vector3 {
        let (a, b) = (right * .pi / 180, far * .pi / 180)
        return Vector3(-sin(a), -cos(a) * sin(b), cos(a) * cos(b))
    }

    /// What the driver reports for that pose, in its units, clamped to its range.
    static func reading(_ up: Vector3, _ device: RecordedAccelerometer) -> [Int32] {
        let g = device.driverFrame(up)
        return [g.x, g.y, g.z].map { Int32(max(min((($0 * device.unitsPerG)).rounded(), Double(device.axis.maximum)),
                                               Double(device.axis.minimum))) }
    }

    /// The samples the evdev source delivers for readings: converted as it converts them
    /// (`AxisConversion`: centred, scaled, calibrated by gravity where there is no
    /// resolution), then the matrix.
    static func samples(_ readings: [[Int32]], _ device: RecordedAccelerometer, matrix: Matrix3) -> [Sample] {
        var conversion = AxisConversion(axes: Array(repeating: device.axis, count: 3))
        return readings.enumerated().map { index, values in
            let time = Double(index) / 100
            return Sample(time: time, acceleration: matrix * conversion.convert(values, at: time).acceleration)
        }
    }

    @Test(arguments: RecordedAccelerometer.controllers)
    func lyingFlatFaceUpReadsAsATabletLyingFlat(device: RecordedAccelerometer) throws {
        let matrix = try Self.matrix(device)
        // Enough still readings for a scale from gravity, where the driver states none.
        let flat = Array(repeating: Self.reading(Self.up(right: 0, far: 0), device),
                         count: Int(GravityCalibration.hold * 100) + 1)
        let a = try #require(Self.samples(flat, device, matrix: matrix).last).acceleration
        #expect(abs(a.x) < 0.01 && abs(a.y) < 0.01 && abs(a.z - standardGravity) < 0.01, "\(a)")
    }

    /// Held 20° towards the player; still for 1.5 s (auto-neutral takes the pose), then
    /// the right grip down, the far edge down, the left grip down, the near edge down,
    /// each a ramp to 31° and back: right, up, left, down, as on a tablet.
    @Test(arguments: RecordedAccelerometer.controllers)
    func heldAsPlayersHoldItTiltsAsATablet(device: RecordedAccelerometer) throws {
        let matrix = try Self.matrix(device)
        let held = -20.0
        var poses: [(right: Double, far: Double)] = Array(repeating: (0, held), count: 150)
        for (right, far) in [(1.0, 0.0), (0, 1), (-1, 0), (0, -1)] {
            let ramp = (0...30).map { Double($0) } + (0..<30).reversed().map { Double($0) }
            poses += ramp.map { (right * $0 * 31 / 30, held + far * $0 * 31 / 30) }
            poses += Array(repeating: (0, held), count: 50)
        }
        var detector = TiltDetector()
        var fired: [Direction] = []
        var autoNeutral = false
        let readings = poses.map { Self.reading(Self.up(right: $0.right, far: $0.far), device) }
        for sample in Self.samples(readings, device, matrix: matrix) {
            switch detector.step(sample) {
            case .fired(let direction)?: fired.append(direction)
            case .autoCalibrated?: autoNeutral = true
            case nil: break
            }
        }
        #expect(autoNeutral, "the held pose became neutral")
        #expect(fired == [.right, .up, .left, .down])
    }

    /// Without the matrix (what the issue measured): flat face up reads as a screen
    /// standing on its bottom edge, so the frame is what makes a controller play.
    @Test func withoutTheHwdbAControllerLyingFlatReadsUpright() throws {
        let device = RecordedAccelerometer.dualSenseUSB
        let a = try #require(Self.samples([Self.reading(Self.up(right: 0, far: 0), device)], device, matrix: .identity)
            .first).acceleration
        #expect(abs(a.y - standardGravity) < 0.01 && abs(a.z) < 0.01, "\(a)")
    }

    /// A Pro Controller without a frame of ours (what the issue saw): its four tilts
    /// come out a quarter turned, right as down, down as left, left as up, up as right.
    @Test func withoutTheHwdbAProControllerPlaysAQuarterTurned() {
        #expect(Self.tilts(RecordedAccelerometer.proControllerUSB, matrix: .identity) == [.down, .right, .up, .left])
    }

    /// The pose a controller is not held in by default plays through the other matrix
    /// (docs/sensors.md): a Joy-Con upright, a Wii Remote pointed at the screen.
    @Test func theOtherPosesPlayThroughTheirMatrices() throws {
        let upright = try MountMatrix.parse("0, -1, 0; 1, 0, 0; 0, 0, 1")
        let pointing = try MountMatrix.parse("-1, 0, 0; 0, 1, 0; 0, 0, 1")
        for joyCon in [RecordedAccelerometer.leftJoyCon, .rightJoyCon] {
            var held = joyCon
            held.driverFrame = { Vector3($0.y, -$0.x, $0.z) }   // upright: triggers far, left to the left
            #expect(Self.tilts(held, matrix: upright) == [.right, .up, .left, .down], "\(joyCon)")
        }
        var wii = RecordedAccelerometer.wiiRemote
        wii.driverFrame = { Vector3(-$0.x, $0.y, $0.z) }   // pointing away: its left to the left
        #expect(Self.tilts(wii, matrix: pointing) == [.right, .up, .left, .down])
    }

    /// Flat for 1.5 s, then right, far, left and near edge down, each a ramp to 31° and back.
    static func tilts(_ device: RecordedAccelerometer, matrix: Matrix3) -> [Direction] {
        var poses: [(right: Double, far: Double)] = Array(repeating: (0, 0), count: 150)
        for (right, far) in [(1.0, 0.0), (0, 1), (-1, 0), (0, -1)] {
            let ramp = (0...30).map { Double($0) } + (0..<30).reversed().map { Double($0) }
            poses += ramp.map { (right * $0 * 31 / 30, far * $0 * 31 / 30) }
            poses += Array(repeating: (0, 0), count: 50)
        }
        var detector = TiltDetector()
        let readings = poses.map { reading(up(right: $0.right, far: $0.far), device) }
        return samples(readings, device, matrix: matrix).compactMap {
            if case .fired(let direction)? = detector.step($0) { direction } else { nil }
        }
    }

    @Test func machinesOwnAccelerometersGetNoControllerFrame() throws {
        #expect(try Self.hwdbMatrix(modalias: RecordedAccelerometer.lis3lv02d.modalias) == nil)
        #expect(try Self.hwdbMatrix(modalias: "input:b0003v046Dp0001e0100-e0,3,kra0,1,2,mlsfw") == nil)
    }
}
