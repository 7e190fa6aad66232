// SPDX-License-Identifier: GPL-3.0-or-later
/// Which way up a camera stored its picture (Exif tag 0x0112, values 1 to 8): a phone
/// held upright stores a landscape image and this tag says to turn it, so a portrait
/// photo is never shown lying on its side.
public enum ExifOrientation: Int, CaseIterable, Equatable, Sendable {
    case up = 1, mirrored = 2, down = 3, downMirrored = 4
    case leftMirrored = 5, right = 6, rightMirrored = 7, left = 8

    /// Whether the picture as shown is the stored one turned a quarter (width and height swap).
    public var swapsSides: Bool { rawValue >= 5 }

    /// The shown picture's size from the stored one's.
    public func shownSize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsSides ? (height, width) : (width, height)
    }

    /// The stored pixel shown at (x, y), for a stored picture of `width`×`height`
    /// (TIFF 6.0's definitions: where the stored first row and column are shown).
    public func storedPixel(shownX x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        switch self {
        case .up: (x, y)
        case .mirrored: (width - 1 - x, y)
        case .down: (width - 1 - x, height - 1 - y)
        case .downMirrored: (x, height - 1 - y)
        case .leftMirrored: (y, x)
        case .right: (y, height - 1 - x)
        case .rightMirrored: (width - 1 - y, height - 1 - x)
        case .left: (width - 1 - y, x)
        }
    }

    /// Where the stored pixel (x, y) is shown: the inverse of `storedPixel`.
    public func shownPixel(storedX x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        switch self {
        case .up: (x, y)
        case .mirrored: (width - 1 - x, y)
        case .down: (width - 1 - x, height - 1 - y)
        case .downMirrored: (x, height - 1 - y)
        case .leftMirrored: (y, x)
        case .right: (height - 1 - y, x)
        case .rightMirrored: (height - 1 - y, width - 1 - x)
        case .left: (y, width - 1 - x)
        }
    }

    /// The orientation in an Exif block's TIFF structure (byte order, IFD0); nil when it has none.
    init?(tiff: [UInt8]) {
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func number(_ at: Int, _ count: Int) -> Int {
            little ? PictureHeader.littleEndian(tiff, at, count) : PictureHeader.bigEndian(tiff, at, count)
        }
        let directory = number(4, 4)
        let entries = number(directory, 2)
        for entry in 0..<min(entries, 512) {
            let at = directory + 2 + entry * 12
            guard at + 12 <= tiff.count else { return nil }
            if number(at, 2) == 0x0112 {
                self.init(rawValue: number(at + 8, 2))
                return
            }
        }
        return nil
    }
}
