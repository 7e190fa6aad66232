// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2TTF
import TiltSystem

/// The only file that talks to SDL2_ttf (TTF_GetError is SDL_GetError): a font at one pixel size that turns a
/// string into ARGB pixels. Pixels, not an SDL surface, cross the boundary, so the
/// renderer needs nothing from this library.

struct RenderedText {
    var width: Int
    var height: Int
    /// ARGB8888, rows packed.
    var pixels: [UInt32]
}

struct FontError: Error, CustomStringConvertible {
    var description: String
}

enum TrueType {
    static func start() throws(FontError) {
        guard TTF_Init() == 0 else { throw FontError(description: L("cannot start the font renderer: {0}", String(cString: SDL_GetError()))) }
    }

    static func stop() { TTF_Quit() }
}

final class Font {
    private let pointer: OpaquePointer
    let size: Int

    init(path: String, size: Int) throws(FontError) {
        guard let font = TTF_OpenFont(path, Int32(size)) else {
            throw FontError(description: L("cannot read the font {0}: {1}", path, String(cString: SDL_GetError())))
        }
        pointer = font
        self.size = size
    }

    deinit { TTF_CloseFont(pointer) }

    /// Whether the font has a glyph of its own for `scalar` (not the box it draws otherwise).
    func provides(_ scalar: Unicode.Scalar) -> Bool { TTF_GlyphIsProvided32(pointer, scalar.value) != 0 }

    /// The width `text` takes, in pixels.
    func width(of text: String) -> Int {
        var width: Int32 = 0
        var height: Int32 = 0
        return TTF_SizeUTF8(pointer, text, &width, &height) == 0 ? Int(width) : 0
    }

    /// `text` anti-aliased in `red`, `green`, `blue`, on a transparent background.
    func render(_ text: String, red: UInt8, green: UInt8, blue: UInt8) -> RenderedText? {
        guard !text.isEmpty,
              let surface = TTF_RenderUTF8_Blended(pointer, text, SDL_Color(r: red, g: green, b: blue, a: 255)) else {
            return nil
        }
        defer { SDL_FreeSurface(surface) }
        let width = Int(surface.pointee.w)
        let height = Int(surface.pointee.h)
        let pitch = Int(surface.pointee.pitch)
        // Blended text is always 32-bit ARGB (SDL_ttf's documented format).
        guard let base = surface.pointee.pixels, surface.pointee.format.pointee.BytesPerPixel == 4 else { return nil }
        var pixels = [UInt32](repeating: 0, count: width * height)
        pixels.withUnsafeMutableBytes { destination in
            for row in 0..<height {
                (destination.baseAddress! + row * width * 4).copyMemory(from: base + row * pitch, byteCount: width * 4)
            }
        }
        return RenderedText(width: width, height: height, pixels: pixels)
    }
}
