// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2Image
import TiltGUI
import TiltSystem

/// A picture made into the board's square: `side`×`side` pixels, 0xAARRGGBB.
struct SquarePicture: Sendable {
    var side: Int
    var pixels: [UInt32]
}

/// The only file that talks to SDL2_image: a picture file's bytes decoded, then made
/// into the board's square (`PictureScaler`) while the decoded pixels are still in
/// SDL's surface, so no second full-size copy is made of a photo in a common format.
enum ImageFile {
    /// `bytes`, whose header was read, as a square of at most `side` pixels (fewer when
    /// the picture has fewer: it is never enlarged here, the renderer does that).
    static func square(_ bytes: [UInt8], header: PictureHeader, side: Int) throws(PictureHeader.Refusal) -> SquarePicture {
        guard let decoded = decode(bytes, header: header, side: side) else {
            throw PictureHeader.Refusal(L("the {0} file cannot be decoded ({1})", header.format.rawValue, String(cString: SDL_GetError())))
        }
        defer { SDL_FreeSurface(decoded) }
        var surface = decoded
        var layout = Self.layout(of: decoded)
        if layout == nil {
            // Another layout (a palette, 16 bits): converted once, to bytes in R, G, B, A order.
            guard let converted = SDL_ConvertSurfaceFormat(decoded, SDL_PIXELFORMAT_RGBA32.rawValue, 0) else {
                throw PictureHeader.Refusal(L("its pixels cannot be read ({0})", String(cString: SDL_GetError())))
            }
            surface = converted
            layout = PictureScaler.PixelLayout(bytesPerPixel: 4, red: 0, green: 1, blue: 2, alpha: 3)
        }
        defer { if surface != decoded { SDL_FreeSurface(surface) } }
        guard let layout else { throw PictureHeader.Refusal(L("its pixels cannot be read")) }
        // Decoded surfaces are not run-length encoded: locking is free, and makes `pixels` valid either way.
        SDL_LockSurface(surface)
        defer { SDL_UnlockSurface(surface) }
        let width = Int(surface.pointee.w), height = Int(surface.pointee.h), pitch = Int(surface.pointee.pitch)
        guard width > 0, height > 0, let pixels = surface.pointee.pixels else { throw PictureHeader.Refusal(L("the picture is empty")) }
        // An SVG is drawn upright already; a camera's JPEG is turned as its Exif says.
        let orientation = header.format == .jpeg ? header.orientation : .up
        let shown = orientation.shownSize(width: width, height: height)
        let square = min(side, shown.width, shown.height)
        let bytes = UnsafeRawBufferPointer(start: pixels, count: pitch * height)
        return SquarePicture(side: square, pixels: PictureScaler.square(bytes: bytes, width: width, height: height, pitch: pitch,
                                                                        layout: layout, orientation: orientation, side: square))
    }

    private static func decode(_ bytes: [UInt8], header: PictureHeader, side: Int) -> UnsafeMutablePointer<SDL_Surface>? {
        bytes.withUnsafeBytes { raw -> UnsafeMutablePointer<SDL_Surface>? in
            guard let stream = SDL_RWFromConstMem(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { SDL_RWclose(stream) }
            // A drawing is drawn at the size it is shown at.
            if header.format == .svg { return IMG_LoadSizedSVG_RW(stream, Int32(side), Int32(side)) }
            return IMG_Load_RW(stream, 0)
        }
    }

    /// Where the channels are in the byte layouts decoders hand out; nil for any other.
    private static func layout(of surface: UnsafeMutablePointer<SDL_Surface>) -> PictureScaler.PixelLayout? {
        switch surface.pointee.format.pointee.format {
        case SDL_PIXELFORMAT_RGB24.rawValue: PictureScaler.PixelLayout(bytesPerPixel: 3, red: 0, green: 1, blue: 2, alpha: nil)
        case SDL_PIXELFORMAT_BGR24.rawValue: PictureScaler.PixelLayout(bytesPerPixel: 3, red: 2, green: 1, blue: 0, alpha: nil)
        case SDL_PIXELFORMAT_RGBA32.rawValue: PictureScaler.PixelLayout(bytesPerPixel: 4, red: 0, green: 1, blue: 2, alpha: 3)
        case SDL_PIXELFORMAT_BGRA32.rawValue: PictureScaler.PixelLayout(bytesPerPixel: 4, red: 2, green: 1, blue: 0, alpha: 3)
        case SDL_PIXELFORMAT_RGB888.rawValue: PictureScaler.PixelLayout(bytesPerPixel: 4, red: 2, green: 1, blue: 0, alpha: nil)
        default: nil
        }
    }
}
