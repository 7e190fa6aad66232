// SPDX-License-Identifier: GPL-3.0-or-later
/// A decoded picture made into the square the board shows: turned upright (Exif), the
/// largest centred square cut out, and shrunk to `side` pixels by averaging every stored
/// pixel into the one it falls in. One pass over the stored pixels, in memory order, so a
/// 12-megapixel photo costs its decoded bytes and the small result, nothing in between.
public enum PictureScaler {
    /// Where a pixel's channels are among its bytes.
    public struct PixelLayout: Equatable, Sendable {
        public var bytesPerPixel: Int
        public var red: Int, green: Int, blue: Int
        /// nil: opaque.
        public var alpha: Int?

        public init(bytesPerPixel: Int, red: Int, green: Int, blue: Int, alpha: Int?) {
            (self.bytesPerPixel, self.red, self.green, self.blue, self.alpha) = (bytesPerPixel, red, green, blue, alpha)
        }
    }

    /// The largest centred square of a `width`×`height` picture as shown: its offset and side.
    public static func centredSquare(width: Int, height: Int) -> (x: Int, y: Int, side: Int) {
        let side = min(width, height)
        return ((width - side) / 2, (height - side) / 2, side)
    }

    /// `side`×`side` pixels, 0xAARRGGBB, row by row. Transparent parts are laid on the
    /// board's colour, `backdrop`, so a drawing with holes still shows whole tiles.
    public static func square(bytes: UnsafeRawBufferPointer, width: Int, height: Int, pitch: Int, layout: PixelLayout,
                              orientation: ExifOrientation, side: Int, backdrop: Color = Palette.board) -> [UInt32] {
        precondition(side > 0 && width > 0 && height > 0 && pitch >= width * layout.bytesPerPixel)
        let shown = orientation.shownSize(width: width, height: height)
        let crop = centredSquare(width: shown.width, height: shown.height)
        // Each output pixel gathers the stored pixels that fall in it: sums and counts.
        var red = [UInt32](repeating: 0, count: side * side)
        var green = red, blue = red, count = red
        // Which output column or row each shown column or row lands in (-1: cut off).
        func bins(length: Int, offset: Int) -> [Int] {
            (0..<length).map { $0 < offset || $0 >= offset + crop.side ? -1 : (($0 - offset) * side) / crop.side }
        }
        let columnBins = bins(length: shown.width, offset: crop.x), rowBins = bins(length: shown.height, offset: crop.y)
        let bpp = layout.bytesPerPixel
        let backdrop = (Int(backdrop.red), Int(backdrop.green), Int(backdrop.blue))
        for y in 0..<height {
            let row = y * pitch
            for x in 0..<width {
                // The shown position of the stored pixel (x, y): the inverse of storedPixel.
                let (sx, sy) = orientation.shownPixel(storedX: x, y: y, width: width, height: height)
                let column = columnBins[sx], outRow = rowBins[sy]
                guard column >= 0, outRow >= 0 else { continue }
                let at = row + x * bpp
                var r = Int(bytes[at + layout.red]), g = Int(bytes[at + layout.green]), b = Int(bytes[at + layout.blue])
                if let alphaOffset = layout.alpha {
                    let a = Int(bytes[at + alphaOffset])
                    r = (r * a + backdrop.0 * (255 - a)) / 255
                    g = (g * a + backdrop.1 * (255 - a)) / 255
                    b = (b * a + backdrop.2 * (255 - a)) / 255
                }
                let index = outRow * side + column
                red[index] += UInt32(r); green[index] += UInt32(g); blue[index] += UInt32(b); count[index] += 1
            }
        }
        return (0..<(side * side)).map { index in
            let n = max(1, count[index])
            return 0xFF00_0000 | (red[index] / n) << 16 | (green[index] / n) << 8 | blue[index] / n
        }
    }
}
