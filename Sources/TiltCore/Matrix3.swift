// SPDX-License-Identifier: GPL-3.0-or-later
/// A 3×3 matrix, row-major. Used for mount matrices (sensor frame → device frame)
/// and the rotation that takes the neutral pose to flat.
public struct Matrix3: Equatable, Hashable, Sendable, Codable, CustomStringConvertible {
    private var r0, r1, r2: Vector3

    public init(rows r0: Vector3, _ r1: Vector3, _ r2: Vector3) {
        self.r0 = r0
        self.r1 = r1
        self.r2 = r2
    }

    /// From nine numbers, row by row, as the kernel's `mount_matrix` attribute and
    /// udev's `ACCEL_MOUNT_MATRIX` list them.
    public init?(_ values: [Double]) {
        guard values.count == 9, values.allSatisfy(\.isFinite) else { return nil }
        self.init(rows: Vector3(values[0], values[1], values[2]),
                  Vector3(values[3], values[4], values[5]),
                  Vector3(values[6], values[7], values[8]))
    }

    public static let identity = Matrix3(rows: Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))

    public var values: [Double] { [r0.x, r0.y, r0.z, r1.x, r1.y, r1.z, r2.x, r2.y, r2.z] }

    public static func * (m: Matrix3, v: Vector3) -> Vector3 {
        Vector3(m.r0.dot(v), m.r1.dot(v), m.r2.dot(v))
    }

    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let c0 = Vector3(b.r0.x, b.r1.x, b.r2.x)
        let c1 = Vector3(b.r0.y, b.r1.y, b.r2.y)
        let c2 = Vector3(b.r0.z, b.r1.z, b.r2.z)
        func row(_ r: Vector3) -> Vector3 { Vector3(r.dot(c0), r.dot(c1), r.dot(c2)) }
        return Matrix3(rows: row(a.r0), row(a.r1), row(a.r2))
    }

    /// The smallest rotation that turns unit vector `from` into unit vector `to`
    /// (Rodrigues); a half turn about x when they are opposite.
    public static func rotation(from: Vector3, to: Vector3) -> Matrix3 {
        let v = from.cross(to)
        let c = from.dot(to)
        if c < -1 + 1e-9 {
            let axis = abs(from.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 1, 0)
            let u = from.cross(axis) * (1 / from.cross(axis).length)
            // Half turn about u: 2uuᵀ − I.
            return Matrix3(rows: Vector3(2 * u.x * u.x - 1, 2 * u.x * u.y, 2 * u.x * u.z),
                           Vector3(2 * u.y * u.x, 2 * u.y * u.y - 1, 2 * u.y * u.z),
                           Vector3(2 * u.z * u.x, 2 * u.z * u.y, 2 * u.z * u.z - 1))
        }
        let k = 1 / (1 + c)
        return Matrix3(rows: Vector3(c + v.x * v.x * k, v.x * v.y * k - v.z, v.x * v.z * k + v.y),
                       Vector3(v.y * v.x * k + v.z, c + v.y * v.y * k, v.y * v.z * k - v.x),
                       Vector3(v.z * v.x * k - v.y, v.z * v.y * k + v.x, c + v.z * v.z * k))
    }

    public var determinant: Double {
        r0.x * (r1.y * r2.z - r1.z * r2.y)
            - r0.y * (r1.x * r2.z - r1.z * r2.x)
            + r0.z * (r1.x * r2.y - r1.y * r2.x)
    }

    /// The inverse; nil for a singular matrix.
    public var inverse: Matrix3? {
        let d = determinant
        guard abs(d) > 1e-12 else { return nil }
        let k = 1 / d
        return Matrix3(rows: Vector3((r1.y * r2.z - r1.z * r2.y) * k, (r0.z * r2.y - r0.y * r2.z) * k, (r0.y * r1.z - r0.z * r1.y) * k),
                       Vector3((r1.z * r2.x - r1.x * r2.z) * k, (r0.x * r2.z - r0.z * r2.x) * k, (r0.z * r1.x - r0.x * r1.z) * k),
                       Vector3((r1.x * r2.y - r1.y * r2.x) * k, (r0.y * r2.x - r0.x * r2.y) * k, (r0.x * r1.y - r0.y * r1.x) * k))
    }

    public var description: String { values.map { "\($0)" }.joined(separator: ",") }

    public static func == (a: Matrix3, b: Matrix3) -> Bool { a.values == b.values }
    public func hash(into hasher: inout Hasher) { hasher.combine(values) }
}
