// SPDX-License-Identifier: GPL-3.0-or-later
import TiltGUI

/// Rendered strings, kept while they are drawn: tile numbers stay for the whole
/// game, a status line is dropped a frame after it changes. Fonts are opened per
/// pixel size, so text is sharp at any window size.
final class TextCache {
    private struct Key: Hashable {
        var text: String
        var size: Int
        var color: Int
    }

    private let fontPath: String
    private var fonts: [Int: Font] = [:]
    private var textures: [Key: Texture] = [:]
    private var usedThisFrame: Set<Key> = []
    private var measuredThisFrame: Set<Int> = []

    init(fontPath: String) {
        self.fontPath = fontPath
    }

    /// `text` at `size` pixels in `color`; nil for an empty string (or a font that cannot draw).
    func texture(_ text: String, size: Double, color: Color, renderer: Renderer) -> Texture? {
        let pixels = Self.pixels(size)
        let key = Key(text: text, size: pixels, color: Int(color.red) << 16 | Int(color.green) << 8 | Int(color.blue))
        usedThisFrame.insert(key)
        if let cached = textures[key] { return cached }
        guard let font = font(size: pixels),
              let rendered = font.render(text, red: color.red, green: color.green, blue: color.blue),
              let texture = renderer.texture(argb: rendered.pixels, width: rendered.width, height: rendered.height) else {
            return nil
        }
        textures[key] = texture
        return texture
    }

    /// How wide `text` is at `size` pixels.
    func width(of text: String, size: Double) -> Double {
        let pixels = Self.pixels(size)
        measuredThisFrame.insert(pixels)
        return Double(font(size: pixels)?.width(of: text) ?? 0)
    }

    private static func pixels(_ size: Double) -> Int { max(6, Int(size.rounded())) }

    /// Forgets what the frame just drawn did not use.
    func endFrame() {
        textures = textures.filter { usedThisFrame.contains($0.key) }
        // Measuring counts as use: a size measured every frame keeps its font.
        fonts = fonts.filter { size, _ in usedThisFrame.contains { $0.size == size } || measuredThisFrame.contains(size) }
        measuredThisFrame.removeAll(keepingCapacity: true)
        usedThisFrame.removeAll(keepingCapacity: true)
    }

    /// Destroys every texture and closes every font, while their renderer and SDL_ttf are still there.
    func removeAll() {
        textures.removeAll()
        fonts.removeAll()
        usedThisFrame.removeAll()
        measuredThisFrame.removeAll()
    }

    private func font(size: Int) -> Font? {
        if let font = fonts[size] { return font }
        // The font was opened at start (GUIMain); one that fails later, at another size, leaves its text out.
        let font = try? Font(path: fontPath, size: size)
        fonts[size] = font
        return font
    }
}
