// SPDX-License-Identifier: GPL-3.0-or-later
/// How the picture is turned on the panel, in degrees counter-clockwise, as Android's
/// `Surface.ROTATION_*`: `.quarter` is the device turned a quarter counter-clockwise
/// from its natural orientation, so the player's "up" is the device's right edge.
public enum ScreenRotation: Int, CaseIterable, Sendable, Codable {
    case upright = 0
    case quarter = 90
    case half = 180
    case threeQuarters = 270

    public init?(degrees: Int) { self.init(rawValue: ((degrees % 360) + 360) % 360) }

    public var degrees: Int { rawValue }

    /// The accepted values as every message that refuses another names them.
    public static let allowedText = "0, 90, 180 or 270"

    /// Device frame → the frame the player sees (x right, y up on the screen).
    public func apply(_ v: Vector3) -> Vector3 {
        switch self {
        case .upright: v
        case .quarter: Vector3(-v.y, v.x, v.z)
        case .half: Vector3(-v.x, -v.y, v.z)
        case .threeQuarters: Vector3(v.y, -v.x, v.z)
        }
    }

    /// The same map as a matrix: its columns are the images of the device axes.
    public var matrix: Matrix3 {
        let (cx, cy, cz) = (apply(Vector3(1, 0, 0)), apply(Vector3(0, 1, 0)), apply(Vector3(0, 0, 1)))
        return Matrix3(rows: Vector3(cx.x, cy.x, cz.x), Vector3(cx.y, cy.y, cz.y), Vector3(cx.z, cy.z, cz.z))
    }
}
