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

    init(fontPath: String) {
        self.fontPath = fontPath
    }

    /// `text` at `size` pixels in `color`; nil for an empty string (or a font that cannot draw).
    func texture(_ text: String, size: Double, color: Color, renderer: Renderer) -> Texture? {
        let pixels = max(6, Int(size.rounded()))
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

    /// Forgets what the frame just drawn did not use.
    func endFrame() {
        textures = textures.filter { usedThisFrame.contains($0.key) }
        fonts = fonts.filter { size, _ in usedThisFrame.contains { $0.size == size } }
        usedThisFrame.removeAll(keepingCapacity: true)
    }

    private func font(size: Int) -> Font? {
        if let font = fonts[size] { return font }
        // The path was checked at start; a font that fails now just leaves text out.
        let font = try? Font(path: fontPath, size: size)
        fonts[size] = font
        return font
    }
}
