// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import TiltGUI

/// A window's pixels, read from an X window dump (`xwd`): the header is 25
/// big-endian 32-bit fields, then the colour map, then the rows; or from the binary
/// PPM a Wayland compositor's grim writes.
struct Screenshot {
    let width: Int
    let height: Int
    /// The file's bytes as an array: reading pixels one by one through Data is too slow for whole areas.
    private let data: [UInt8]
    private let offset: Int
    private let bytesPerPixel: Int
    private let bytesPerLine: Int
    private let leastSignificantFirst: Bool
    private let masks: (red: UInt32, green: UInt32, blue: UInt32)

    init(xwd data: Data) throws {
        guard data.count >= 100 else { throw TestFailure("an xwd file of \(data.count) bytes") }
        let field = { (index: Int) -> Int in
            data[data.startIndex + index * 4 ..< data.startIndex + index * 4 + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        let headerSize = field(0)
        guard field(2) == 2 else { throw TestFailure("xwd is not a ZPixmap") }
        width = field(4)
        height = field(5)
        leastSignificantFirst = field(7) == 0
        bytesPerPixel = field(11) / 8
        bytesPerLine = field(12)
        masks = (UInt32(field(14)), UInt32(field(15)), UInt32(field(16)))
        offset = headerSize + field(19) * 12
        guard bytesPerPixel >= 3, data.count >= offset + bytesPerLine * height else {
            throw TestFailure("xwd of \(width)×\(height) at \(bytesPerPixel * 8) bits per pixel is cut short")
        }
        self.data = [UInt8](data)
    }

    /// A binary PPM (P6, 8 bits a channel): "P6 width height 255", one white space, RGB rows.
    init(ppm data: Data) throws {
        var fields: [Int] = []
        var index = data.startIndex + 2
        guard data.starts(with: Array("P6".utf8)) else { throw TestFailure("not a binary PPM") }
        while fields.count < 3, index < data.endIndex {
            while index < data.endIndex, data[index] == 0x20 || data[index] == 0x0A || data[index] == 0x09 { index += 1 }
            var value = 0
            while index < data.endIndex, (0x30...0x39).contains(data[index]) { value = value * 10 + Int(data[index] - 0x30); index += 1 }
            fields.append(value)
        }
        guard fields.count == 3, fields[2] == 255 else { throw TestFailure("a PPM header of \(fields)") }
        width = fields[0]
        height = fields[1]
        offset = index + 1 - data.startIndex
        bytesPerPixel = 3
        bytesPerLine = 3 * width
        leastSignificantFirst = false
        masks = (0xFF0000, 0x00FF00, 0x0000FF)
        guard data.count >= offset + bytesPerLine * height else { throw TestFailure("a PPM of \(width)×\(height) is cut short") }
        self.data = [UInt8](data)
    }

    func pixel(x: Int, y: Int) -> Color {
        let start = offset + y * bytesPerLine + x * bytesPerPixel
        var value: UInt32 = 0
        for index in 0..<bytesPerPixel {
            let byte = UInt32(data[leastSignificantFirst ? start + bytesPerPixel - 1 - index : start + index])
            value = value << 8 | byte
        }
        return Color(Self.channel(value, masks.red), Self.channel(value, masks.green), Self.channel(value, masks.blue))
    }

    func pixel(at point: Point) -> Color { pixel(x: Int(point.x), y: Int(point.y)) }

    /// How many pixels in `rect` are within `tolerance` of `color` (of every `step`th in each direction).
    func count(of color: Color, in rect: Rect, tolerance: Int = 40, step: Int = 1) -> Int {
        var count = 0
        for y in stride(from: Int(rect.y), to: Int(rect.maxY), by: step) {
            for x in stride(from: Int(rect.x), to: Int(rect.maxX), by: step) where pixel(x: x, y: y).isClose(to: color, tolerance: tolerance) {
                count += 1
            }
        }
        return count
    }

    private static func channel(_ value: UInt32, _ mask: UInt32) -> UInt8 {
        guard mask != 0 else { return 0 }
        return UInt8(truncatingIfNeeded: (value & mask) >> UInt32(mask.trailingZeroBitCount))
    }
}

extension Color {
    func isClose(to other: Color, tolerance: Int = 4) -> Bool {
        abs(Int(red) - Int(other.red)) <= tolerance && abs(Int(green) - Int(other.green)) <= tolerance
            && abs(Int(blue) - Int(other.blue)) <= tolerance
    }
}
