// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltGUI

@Suite struct PictureHeaderTests {
    static func png(width: Int, height: Int) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
            + bigEndian(width, 4) + bigEndian(height, 4) + [8, 6, 0, 0, 0]
    }

    static func bigEndian(_ value: Int, _ count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) }
    }

    /// A JPEG's segments up to its frame header: an Exif block (big- or little-endian
    /// TIFF) with `orientation`, then SOF0 with the size.
    static func jpeg(width: Int, height: Int, orientation: Int?, littleEndian: Bool = false) -> [UInt8] {
        func number(_ value: Int, _ count: Int) -> [UInt8] {
            littleEndian ? bigEndian(value, count).reversed() : bigEndian(value, count)
        }
        var segments: [UInt8] = [0xFF, 0xD8]
        if let orientation {
            let tiff = (littleEndian ? Array("II".utf8) : Array("MM".utf8)) + number(42, 2) + number(8, 4)
                + number(1, 2) + number(0x0112, 2) + number(3, 2) + number(1, 4) + number(orientation, 2) + [0, 0] + number(0, 4)
            let body = Array("Exif".utf8) + [0, 0] + tiff
            segments += [0xFF, 0xE1] + bigEndian(body.count + 2, 2) + body
        }
        let frame: [UInt8] = [8] + bigEndian(height, 2) + bigEndian(width, 2) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        return segments + [0xFF, 0xC0] + bigEndian(frame.count + 2, 2) + frame + [0xFF, 0xDA]
    }

    @Test func readsAPNGsSize() throws {
        let header = try PictureHeader(Self.png(width: 4000, height: 3000))
        #expect(header.format == .png && header.width == 4000 && header.height == 3000)
    }

    @Test(arguments: [false, true])
    func readsAJPEGsSizeAndOrientation(littleEndian: Bool) throws {
        for orientation in ExifOrientation.allCases {
            let header = try PictureHeader(Self.jpeg(width: 4032, height: 3024, orientation: orientation.rawValue,
                                                     littleEndian: littleEndian))
            #expect(header.format == .jpeg && header.width == 4032 && header.height == 3024)
            #expect(header.orientation == orientation)
        }
        #expect(try PictureHeader(Self.jpeg(width: 10, height: 20, orientation: nil)).orientation == .up)
    }

    @Test func readsTheThreeKindsOfWebP() throws {
        let riff = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8)
        // Lossy: the size at bytes 26 and 28, after the key frame's start code.
        let lossy = riff + Array("VP8 ".utf8) + [UInt8](repeating: 0, count: 10) + [0x40, 0x01, 0xF0, 0x00]
        #expect(try PictureHeader(lossy).width == 320 && PictureHeader(lossy).height == 240)
        // Lossless: 14 bits each of width − 1 and height − 1 from byte 21.
        let bits = (320 - 1) | (240 - 1) << 14
        let lossless = riff + Array("VP8L".utf8) + [0, 0, 0, 0, 0x2F] + (0..<4).map { UInt8((bits >> ($0 * 8)) & 0xFF) }
        #expect(try PictureHeader(lossless).width == 320 && PictureHeader(lossless).height == 240)
        // Extended: 24 bits each from byte 24.
        let extended = riff + Array("VP8X".utf8) + [0, 0, 0, 0, 0, 0, 0, 0] + [0x3F, 0x01, 0x00, 0xEF, 0x00, 0x00]
        #expect(try PictureHeader(extended).width == 320 && PictureHeader(extended).height == 240)
    }

    @Test func knowsAnSVGDrawing() throws {
        let svg = Array("<?xml version=\"1.0\"?>\n<!-- drawn here -->\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)
        #expect(try PictureHeader(svg).format == .svg)
        #expect(try PictureHeader(svg).width == nil)
        for picture in BuiltInPictures.all {
            #expect(try PictureHeader(Array(picture.svg.utf8)).format == .svg, "\(picture.name)")
        }
    }

    /// Each refusal says why in words, before anything is decoded.
    @Test func refusesWhatIsNoPictureItCanShow() {
        let cases: [([UInt8], String)] = [
            ([], "empty"),
            (Array("just some text".utf8), "not a PNG, JPEG, WebP or SVG"),
            (Array("<html><svg/></html>".utf8), "not a PNG"),
            (Array(Self.png(width: 10, height: 10).prefix(20)), "cut short"),
            (Self.png(width: 20000, height: 20000), "20000×20000 pixels is more than the 48 megapixels"),
            (Self.png(width: 0, height: 10), "0×10"),
            (Array(Self.jpeg(width: 10, height: 10, orientation: 6).prefix(30)), "cut short"),
            (Self.jpeg(width: 30000, height: 30000, orientation: nil), "megapixels"),
            (Array("RIFF\0\0\0\0WEBPVP8 ".utf8), "WebP"),
        ]
        for (bytes, reason) in cases {
            #expect(throws: PictureHeader.Refusal.self, "\(reason)") { try PictureHeader(bytes) }
            do {
                _ = try PictureHeader(bytes)
            } catch {
                #expect(error.description.contains(reason), "\(error.description)")
            }
        }
        let huge = Array("<svg>".utf8) + [UInt8](repeating: 0x20, count: PictureHeader.maximumSVGBytes)
        #expect(throws: PictureHeader.Refusal.self) { try PictureHeader(huge) }
    }
}
