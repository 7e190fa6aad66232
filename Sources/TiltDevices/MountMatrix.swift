// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore

/// Mount matrices: where the sensor chip sits relative to the screen.
///
/// The kernel's `mount_matrix` attributes and udev's `ACCEL_MOUNT_MATRIX` both
/// list three rows separated by `;`, three numbers each ("x1, y1, z1; x2, y2, z2;
/// x3, y3, z3"). Row i holds the sensor-axis weights of device axis i, so a
/// reading is taken to the device frame by `device = M · sensor` (docs/sensors.md).
public enum MountMatrix {
    public static func parse(_ text: String) throws(SensorError) -> Matrix3 {
        let trimmed = text.trimmingWhitespace
        let rows = trimmed.split(separator: ";", omittingEmptySubsequences: false)
        guard rows.count == 3 else {
            throw SensorError("mount matrix '\(trimmed)': expected 3 rows separated by ';', found \(rows.count)")
        }
        var values: [Double] = []
        for (index, row) in rows.enumerated() {
            let fields = row.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 3 else {
                throw SensorError("mount matrix '\(trimmed)': row \(index + 1) has \(fields.count) numbers, expected 3")
            }
            for field in fields {
                guard let value = field.sysfsNumber else {
                    throw SensorError("mount matrix '\(trimmed)': '\(field.trimmingWhitespace)' is not a number")
                }
                values.append(value)
            }
        }
        guard let matrix = Matrix3(values), abs(matrix.determinant) > 1e-6 else {
            throw SensorError("mount matrix '\(trimmed)' is singular: it would lose an axis")
        }
        return matrix
    }

    /// The one matrix a source applies to its samples: the configuration's, else the
    /// device's own (udev's or the kernel's, as discovery found it; identity when none).
    public static func chosen(configured: Matrix3?, device: Matrix3) -> Matrix3 { configured ?? device }

    /// The udev/sysfs text for a matrix, rows separated by `;`.
    public static func text(_ matrix: Matrix3) -> String {
        let v = matrix.values.map(\.sysfsText)
        return "\(v[0]), \(v[1]), \(v[2]); \(v[3]), \(v[4]), \(v[5]); \(v[6]), \(v[7]), \(v[8])"
    }
}
