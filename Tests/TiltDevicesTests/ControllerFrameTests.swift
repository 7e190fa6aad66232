import Foundation
import Testing
import TiltCore
@testable import TiltDevices
#if canImport(Glibc)
import Glibc
#endif

/// An evdev accelerometer as its driver sets it up, written from the driver's source:
/// the input device's name and modalias, its bus, the accelerometer axes' absinfo.
struct RecordedAccelerometer: Sendable, CustomStringConvertible {
    var name: String
    var modalias: String
    /// `id/bustype` as sysfs prints it.
    var bus: String
    /// ABS_X, ABS_Y and ABS_Z alike.
    var axis: AbsoluteAxis
    var description: String { name }

    /// hid-playstation and hid-sony: ±4 g at 8192 per g (DS_ACC_RANGE, DS4_ACC_RANGE),
    /// fuzz 16, and the driver's version patch (0x8000) in the modalias.
    static func sony(_ name: String, bus: String, product: String) -> RecordedAccelerometer {
        RecordedAccelerometer(name: name, modalias: "input:b\(bus)v054Cp\(product)e8100-e0,3,4,kra0,1,2,3,4,5,m5,lsfw",
                              bus: bus, axis: AbsoluteAxis(value: 0, minimum: -32768, maximum: 32768, resolution: 8192))
    }

    static let dualSenseUSB = sony("Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors",
                                   bus: "0003", product: "0CE6")
    static let dualSenseBluetooth = sony("DualSense Wireless Controller Motion Sensors", bus: "0005", product: "0CE6")
    static let dualShock4USB = sony("Sony Computer Entertainment Wireless Controller Motion Sensors",
                                    bus: "0003", product: "05C4")
    static let dualShock4v2Bluetooth = sony("Wireless Controller Motion Sensors", bus: "0005", product: "09CC")
    /// lis3lv02d: BUS_HOST, values in mg, no resolution (a 12-bit LIS3LV02DL: ±2048 × 1000/1024).
    static let lis3lv02d = RecordedAccelerometer(name: "ST LIS3LV02DL Accelerometer",
                                                 modalias: "input:b0019v0000p0000e0000-e0,3,kra0,1,2,mlsfw", bus: "0019",
                                                 axis: AbsoluteAxis(value: 0, minimum: -2000, maximum: 2000, resolution: 0))

    static let controllers = [dualSenseUSB, dualSenseBluetooth, dualShock4USB, dualShock4v2Bluetooth]
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
        var matched = false
        var matrix: String?
        for line in try String(contentsOfFile: hwdbPath, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") { continue }
            if line.isEmpty { matched = false; continue }
            if line.hasPrefix(" ") {
                if matched, line.hasPrefix(" ACCEL_MOUNT_MATRIX=") { matrix = String(line.dropFirst(" ACCEL_MOUNT_MATRIX=".count)) }
            } else if fnmatch(String(line), key, 0) == 0 {
                matched = true
            }
        }
        return matrix
    }

    static func matrix(_ device: RecordedAccelerometer) throws -> Matrix3 {
        try hwdbMatrix(modalias: device.modalias).map { text throws(SensorError) in try MountMatrix.parse(text) } ?? .identity
    }

    /// What the driver reports for a pose of a Sony controller, in its units: its
    /// frame is x to the right, y out of the face, z towards the player, and it reads
    /// the reaction to gravity. `right` lowers the right grip, `far` the far edge
    /// (negative: raises it, the pose players hold), in degrees.
    static func sonyReading(right: Double, far: Double, axis: AbsoluteAxis) -> Vector3 {
        let (a, b) = (right * .pi / 180, far * .pi / 180)
        let up = Vector3(-sin(a), cos(a) * cos(b), cos(a) * sin(b))
        func unit(_ g: Double) -> Double {
            Double(min(max(Int32((g * Double(axis.resolution)).rounded()), axis.minimum), axis.maximum))
        }
        return Vector3(unit(up.x), unit(up.y), unit(up.z))
    }

    /// The sample the evdev source delivers for a reading: scaled by the axis, then the matrix.
    static func sample(_ raw: Vector3, _ device: RecordedAccelerometer, matrix: Matrix3, time: Double) -> Sample {
        let scale = EvdevSource.scale(device.axis)
        return Sample(time: time, acceleration: matrix * (raw * scale))
    }

    @Test(arguments: RecordedAccelerometer.controllers)
    func lyingFlatFaceUpReadsAsATabletLyingFlat(device: RecordedAccelerometer) throws {
        let matrix = try Self.matrix(device)
        let flat = Self.sample(Self.sonyReading(right: 0, far: 0, axis: device.axis), device, matrix: matrix, time: 0)
        let a = flat.acceleration
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
        for (index, pose) in poses.enumerated() {
            let raw = Self.sonyReading(right: pose.right, far: pose.far, axis: device.axis)
            switch detector.step(Self.sample(raw, device, matrix: matrix, time: Double(index) / 100)) {
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
    @Test func withoutTheHwdbAControllerLyingFlatReadsUpright() {
        let device = RecordedAccelerometer.dualSenseUSB
        let a = Self.sample(Self.sonyReading(right: 0, far: 0, axis: device.axis), device, matrix: .identity, time: 0)
            .acceleration
        #expect(abs(a.y - standardGravity) < 0.01 && abs(a.z) < 0.01, "\(a)")
    }

    @Test func machinesOwnAccelerometersGetNoControllerFrame() throws {
        #expect(try Self.hwdbMatrix(modalias: RecordedAccelerometer.lis3lv02d.modalias) == nil)
        #expect(try Self.hwdbMatrix(modalias: "input:b0003v046Dp0001e0100-e0,3,kra0,1,2,mlsfw") == nil)
    }
}
