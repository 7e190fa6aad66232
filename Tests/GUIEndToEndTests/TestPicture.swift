// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import TiltGUI

/// Pictures the tests make themselves, as PNG files (python3's zlib writes them): a grid
/// of flat colour blocks whose every pixel the test knows, a smooth gradient of any size,
/// and files that only look like pictures.
enum TestPicture {
    /// Blocks across and down: 15 is a multiple of 3 and of 5, so the middle of every cell
    /// of a 3×3 or 5×5 board, and its corners, lie well inside one block.
    static let blocks = 15

    /// The colour of block (`column`, `row`): red grows to the right, green downwards,
    /// blue falls along the diagonal. No block is near the board's or a tile's colour.
    static func blockColor(column: Int, row: Int) -> Color {
        Color(UInt8(30 + 15 * column), UInt8(30 + 15 * row), UInt8(230 - 6 * (column + row)))
    }

    /// The colour at (`x`, `y`), fractions of the picture's width and height from its top left.
    static func color(x: Double, y: Double) -> Color {
        let clamp = { (value: Double) in min(blocks - 1, max(0, Int(value * Double(blocks)))) }
        return blockColor(column: clamp(x), row: clamp(y))
    }

    /// Writes the blocks as a `side`×`side` PNG at `path`.
    static func writeBlocks(side: Int, to path: String) throws {
        var raw = [UInt8]()
        raw.reserveCapacity(side * side * 3)
        for y in 0..<side {
            for x in 0..<side {
                let c = color(x: Double(x) / Double(side), y: Double(y) / Double(side))
                raw += [c.red, c.green, c.blue]
            }
        }
        let rawPath = path + ".rgb"
        try Data(raw).write(to: URL(fileURLWithPath: rawPath))
        defer { try? FileManager.default.removeItem(atPath: rawPath) }
        try python(["raw", rawPath, "\(side)", "\(side)", path])
    }

    /// Writes a `width`×`height` PNG of a smooth gradient at `path` (it compresses to little).
    static func writeGradient(width: Int, height: Int, to path: String) throws {
        try python(["gradient", "\(width)", "\(height)", path])
    }

    /// A PNG whose header (IHDR) claims `width`×`height` pixels, with a few bytes of data: a decompression bomb's start.
    static func writeClaiming(width: Int, height: Int, to path: String) throws {
        try python(["claim", "\(width)", "\(height)", path])
    }

    /// Writes a `width`×`height` JPEG (cjpeg) of 2×2 flat quadrants, `quadrants[row][column]`,
    /// with an Exif block saying `orientation` (1 to 8) right after its start.
    static func writeJPEG(width: Int, height: Int, quadrants: [[Color]], orientation: Int, to path: String) throws {
        var ppm = Array("P6 \(width) \(height) 255\n".utf8)
        for y in 0..<height {
            for x in 0..<width {
                let c = quadrants[2 * y / height][2 * x / width]
                ppm += [c.red, c.green, c.blue]
            }
        }
        let ppmPath = path + ".ppm", plainPath = path + ".plain.jpg"
        try Data(ppm).write(to: URL(fileURLWithPath: ppmPath))
        defer { for file in [ppmPath, plainPath] { try? FileManager.default.removeItem(atPath: file) } }
        _ = try VirtualDisplay.run([try VirtualDisplay.tool("cjpeg", package: "libjpeg-turbo-progs"), "-quality", "95",
                                    "-outfile", plainPath, ppmPath],
                                   described: "cjpeg", environment: [:], outputPath: path + ".out", timeout: 60)
        try? FileManager.default.removeItem(atPath: path + ".out")
        let plain = [UInt8](try Data(contentsOf: URL(fileURLWithPath: plainPath)))
        guard plain.starts(with: [0xFF, 0xD8]) else { throw TestFailure("cjpeg wrote no JPEG") }
        // TIFF, big-endian: the header, IFD0 with the one entry (tag 0x0112, SHORT, 1 value), no next IFD.
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1,
                             0, UInt8(orientation), 0, 0, 0, 0, 0, 0]
        let body = Array("Exif".utf8) + [0, 0] + tiff
        let app1: [UInt8] = [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        try Data(plain.prefix(2) + app1 + plain.dropFirst(2)).write(to: URL(fileURLWithPath: path))
    }

    private static let script = #"""
        import struct, sys, zlib

        def chunk(kind, data):
            return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)

        def png(width, height, rows):
            z = zlib.compressobj(6)
            data = b''.join(z.compress(b'\0' + row) for row in rows) + z.flush()
            return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 2, 0, 0, 0))
                    + chunk(b'IDAT', data) + chunk(b'IEND', b''))

        mode = sys.argv[1]
        if mode == 'raw':
            raw = open(sys.argv[2], 'rb').read()
            width, height, out = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
            data = png(width, height, (raw[y * width * 3:(y + 1) * width * 3] for y in range(height)))
        elif mode == 'gradient':
            width, height, out = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
            base = bytearray(width * 3)
            base[0::3] = bytes(x * 255 // width for x in range(width))
            base[2::3] = bytes([128]) * width
            def rows():
                for y in range(height):
                    base[1::3] = bytes([y * 255 // height]) * width
                    yield bytes(base)
            data = png(width, height, rows())
        else:
            width, height, out = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
            data = (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 2, 0, 0, 0))
                    + chunk(b'IDAT', zlib.compress(b'\0' * 4096)) + chunk(b'IEND', b''))
        open(out, 'wb').write(data)
        """#

    /// Runs the script; its output goes next to the picture (the last argument) and is removed.
    private static func python(_ arguments: [String]) throws {
        let output = arguments.last! + ".out"
        defer { try? FileManager.default.removeItem(atPath: output) }
        _ = try VirtualDisplay.run([try VirtualDisplay.tool("python3", package: "python3"), "-c", script] + arguments,
                                   described: "python3 writing a picture (\(arguments[0]))", environment: [:],
                                   outputPath: output, timeout: 120)
    }
}
