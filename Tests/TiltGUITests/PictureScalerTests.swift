// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltGUI

@Suite struct PictureScalerTests {
    /// A stored picture whose pixel (x, y) has red x and green y (RGB, 3 bytes a pixel).
    static func ramp(width: Int, height: Int, pitch: Int? = nil) -> (bytes: [UInt8], pitch: Int) {
        let pitch = pitch ?? width * 3
        var bytes = [UInt8](repeating: 0, count: pitch * height)
        for y in 0..<height {
            for x in 0..<width {
                bytes[y * pitch + x * 3] = UInt8(x)
                bytes[y * pitch + x * 3 + 1] = UInt8(y)
                bytes[y * pitch + x * 3 + 2] = 7
            }
        }
        return (bytes, pitch)
    }

    static let rgb = PictureScaler.PixelLayout(bytesPerPixel: 3, red: 0, green: 1, blue: 2, alpha: nil)

    static func square(_ picture: (bytes: [UInt8], pitch: Int), width: Int, height: Int, _ orientation: ExifOrientation = .up,
                       side: Int) -> [UInt32] {
        picture.bytes.withUnsafeBytes {
            PictureScaler.square(bytes: $0, width: width, height: height, pitch: picture.pitch, layout: rgb,
                                 orientation: orientation, side: side)
        }
    }

    static func channels(_ pixel: UInt32) -> (red: Int, green: Int, blue: Int) {
        (Int(pixel >> 16 & 0xFF), Int(pixel >> 8 & 0xFF), Int(pixel & 0xFF))
    }

    @Test func theLargestCentredSquare() {
        #expect(PictureScaler.centredSquare(width: 4000, height: 3000) == (500, 0, 3000))
        #expect(PictureScaler.centredSquare(width: 3000, height: 4000) == (0, 500, 3000))
        #expect(PictureScaler.centredSquare(width: 64, height: 64) == (0, 0, 64))
    }

    /// A landscape picture keeps its middle; each output pixel is the mean of the pixels in it.
    @Test func cropsTheMiddleAndAveragesEachPixelsShare() {
        let picture = Self.ramp(width: 40, height: 20, pitch: 40 * 3 + 5)
        let square = Self.square(picture, width: 40, height: 20, side: 2)
        #expect(square.count == 4)
        // Columns 10…19 and 20…29, rows 0…9 and 10…19: means 14.5 and 24.5, 4.5 and 14.5.
        #expect(Self.channels(square[0]) == (14, 4, 7))
        #expect(Self.channels(square[1]) == (24, 4, 7))
        #expect(Self.channels(square[2]) == (14, 14, 7))
        #expect(Self.channels(square[3]) == (24, 14, 7))
        #expect(square.allSatisfy { $0 >> 24 == 0xFF })
    }

    /// Every orientation shows the stored picture as its Exif tag says: a marked corner
    /// of the stored picture lands where TIFF puts it.
    @Test(arguments: ExifOrientation.allCases)
    func turnsThePictureUpright(orientation: ExifOrientation) {
        let width = 6, height = 4
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        // The stored top left pixel is white, every other one black.
        bytes[0] = 255; bytes[1] = 255; bytes[2] = 255
        let shown = orientation.shownSize(width: width, height: height)
        let crop = PictureScaler.centredSquare(width: shown.width, height: shown.height)
        let square = Self.square((bytes, width * 3), width: width, height: height, orientation, side: crop.side)
        // Where storedPixel says the white one is shown, and nowhere else.
        var white: [(Int, Int)] = []
        for y in 0..<shown.height {
            for x in 0..<shown.width where orientation.storedPixel(shownX: x, y: y, width: width, height: height) == (0, 0) {
                white.append((x, y))
            }
        }
        #expect(white.count == 1)
        let (x, y) = white[0]
        let inside = (x - crop.x, y - crop.y)
        for row in 0..<crop.side {
            for column in 0..<crop.side {
                let lit = Self.channels(square[row * crop.side + column]).red == 255
                #expect(lit == (inside == (column, row)), "\(orientation) at \(column),\(row)")
            }
        }
    }

    @Test func theQuarterTurnsSwapTheSides() {
        #expect(ExifOrientation.right.shownSize(width: 4032, height: 3024) == (3024, 4032))
        #expect(ExifOrientation.down.shownSize(width: 4032, height: 3024) == (4032, 3024))
        // A phone held upright stores its photo lying on its side, tagged 6: the stored
        // bottom left pixel is the top left one shown.
        #expect(ExifOrientation.right.storedPixel(shownX: 0, y: 0, width: 4032, height: 3024) == (0, 3023))
    }

    /// Transparent parts show the board's colour, not black.
    @Test func laysTransparencyOnTheBoard() {
        let layout = PictureScaler.PixelLayout(bytesPerPixel: 4, red: 0, green: 1, blue: 2, alpha: 3)
        let bytes: [UInt8] = [255, 0, 0, 0]
        let square = bytes.withUnsafeBytes {
            PictureScaler.square(bytes: $0, width: 1, height: 1, pitch: 4, layout: layout, orientation: .up, side: 1)
        }
        #expect(Self.channels(square[0]) == (Int(Palette.board.red), Int(Palette.board.green), Int(Palette.board.blue)))
    }
}

extension PictureScalerTests {
    /// Each stored pixel is shown once, where `storedPixel` says it comes from.
    @Test(arguments: ExifOrientation.allCases)
    func shownAndStoredAreInverses(orientation: ExifOrientation) {
        let width = 5, height = 3
        let shown = orientation.shownSize(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let at = orientation.shownPixel(storedX: x, y: y, width: width, height: height)
                #expect((0..<shown.width).contains(at.x) && (0..<shown.height).contains(at.y))
                #expect(orientation.storedPixel(shownX: at.x, y: at.y, width: width, height: height) == (x, y))
            }
        }
    }
}
