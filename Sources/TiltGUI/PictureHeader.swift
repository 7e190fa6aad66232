// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem

/// What a picture file says about itself before it is decoded: its format, its size in
/// pixels and, for a camera's JPEG, which way up it was taken. Read from the bytes alone,
/// so a file that claims a huge size (a decompression bomb) is refused before any memory
/// is spent on it (docs/gui.md, Pictures).
public struct PictureHeader: Equatable, Sendable {
    public enum Format: String, Equatable, Sendable {
        case png = "PNG", jpeg = "JPEG", webp = "WebP", svg = "SVG"
    }

    public var format: Format
    /// The stored size; nil for SVG, which is drawn at the size asked for.
    public var width: Int?
    public var height: Int?
    public var orientation: ExifOrientation = .up

    /// Why a file cannot be a picture of the game.
    public struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// The most pixels a picture may have: a 48-megapixel camera's photos load, a
    /// 20000×20000 one (or a small file that claims as much) does not. Decoding one
    /// takes at most 4 bytes a pixel for a moment, 192 MiB (docs/gui.md, Pictures).
    public static let maximumPixels = 48_000_000
    /// The largest file read: a photo of 48 megapixels is well under it.
    public static let maximumFileBytes = 64 << 20
    /// The largest SVG drawing: its parser's work grows with the text.
    public static let maximumSVGBytes = 4 << 20


    /// Reads the header from a file's first bytes (the whole file for a JPEG, whose size
    /// comes after its metadata).
    public init(_ bytes: [UInt8]) throws(Refusal) {
        if bytes.isEmpty { throw Refusal(L("the file is empty")) }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            guard bytes.count >= 24, Self.text(bytes, 12, 4) == "IHDR" else { throw Refusal(L("the PNG file is cut short")) }
            format = .png
            width = Self.bigEndian(bytes, 16, 4)
            height = Self.bigEndian(bytes, 20, 4)
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            format = .jpeg
            let found = try Self.jpeg(bytes)
            (width, height, orientation) = (found.width, found.height, found.orientation)
        } else if bytes.count >= 12, Self.text(bytes, 0, 4) == "RIFF", Self.text(bytes, 8, 4) == "WEBP" {
            format = .webp
            (width, height) = try Self.webp(bytes)
        } else if Self.looksLikeSVG(bytes) {
            format = .svg
            guard bytes.count <= Self.maximumSVGBytes else {
                throw Refusal(L("the SVG drawing is larger than {0} MiB", Self.maximumSVGBytes >> 20))
            }
        } else {
            throw Refusal(L("not a PNG, JPEG, WebP or SVG picture"))
        }
        if let width, let height {
            guard width > 0, height > 0 else { throw Refusal(L("the {0} file says it is {1}×{2} pixels", format.rawValue, width, height)) }
            guard width <= Self.maximumPixels / height else {
                throw Refusal(L("{0}×{1} pixels is more than the {2} megapixels a picture may have", width, height, Self.maximumPixels / 1_000_000))
            }
        }
    }

    // MARK: JPEG

    /// Walks the segments up to the frame header (SOFn), reading the Exif orientation on the way.
    private static func jpeg(_ bytes: [UInt8]) throws(Refusal) -> (width: Int, height: Int, orientation: ExifOrientation) {
        var orientation = ExifOrientation.up
        var at = 2
        while at + 4 <= bytes.count {
            guard bytes[at] == 0xFF else { throw Refusal(L("the JPEG file is damaged")) }
            let marker = bytes[at + 1]
            if marker == 0xFF { at += 1; continue }           // fill bytes
            if (0xD0...0xD9).contains(marker) || marker == 0x01 { at += 2; continue }   // no length
            let length = bigEndian(bytes, at + 2, 2)
            guard length >= 2, at + 2 + length <= bytes.count else { break }
            let body = at + 4
            switch marker {
            case 0xE1 where length >= 8 && text(bytes, body, 6) == "Exif\0\0":
                orientation = ExifOrientation(tiff: Array(bytes[(body + 6)..<(at + 2 + length)])) ?? orientation
            case 0xC0...0xCF where ![0xC4, 0xC8, 0xCC].contains(marker):
                guard length >= 7 else { throw Refusal(L("the JPEG file is damaged")) }
                return (bigEndian(bytes, body + 3, 2), bigEndian(bytes, body + 1, 2), orientation)
            default:
                break
            }
            at += 2 + length
        }
        throw Refusal(L("the JPEG file is cut short"))
    }

    // MARK: WebP

    private static func webp(_ bytes: [UInt8]) throws(Refusal) -> (Int, Int) {
        let chunk = bytes.count >= 16 ? text(bytes, 12, 4) : ""
        switch chunk {
        case "VP8 " where bytes.count >= 30:
            return (littleEndian(bytes, 26, 2) & 0x3FFF, littleEndian(bytes, 28, 2) & 0x3FFF)
        case "VP8L" where bytes.count >= 25:
            let bits = littleEndian(bytes, 21, 4)
            return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X" where bytes.count >= 30:
            return (littleEndian(bytes, 24, 3) + 1, littleEndian(bytes, 27, 3) + 1)
        default:
            throw Refusal(L("the WebP file is cut short or of an unknown kind"))
        }
    }

    // MARK: SVG

    /// An XML document whose first element is `<svg`, within its first kilobyte.
    private static func looksLikeSVG(_ bytes: [UInt8]) -> Bool {
        let start = String(decoding: bytes.prefix(1024), as: UTF8.self)
        var rest = Substring(start)
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            if rest.hasPrefix("svg") { return true }
            // A declaration, a comment or a doctype may come first; any other element may not.
            guard rest.hasPrefix("?") || rest.hasPrefix("!") else { return false }
        }
        return false
    }

    // MARK: Bytes

    static func text(_ bytes: [UInt8], _ at: Int, _ count: Int) -> String {
        guard at >= 0, at + count <= bytes.count else { return "" }
        return String(decoding: bytes[at..<(at + count)], as: UTF8.self)
    }

    static func bigEndian(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int {
        guard at >= 0, at + count <= bytes.count else { return 0 }
        return bytes[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    static func littleEndian(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int {
        guard at >= 0, at + count <= bytes.count else { return 0 }
        return bytes[at..<(at + count)].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
