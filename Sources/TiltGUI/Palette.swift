// SPDX-License-Identifier: GPL-3.0-or-later
/// An RGBA colour, 0…255 each.
public struct Color: Equatable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public var description: String { "rgb(\(red), \(green), \(blue))" }
}

/// The window's colours, in one place: the painter uses them, and the end-to-end
/// test reads them back from a screenshot to see where the tiles are.
public enum Palette {
    public static let background = Color(30, 36, 48)
    /// The board behind the tiles: the empty cell and the lines between tiles show it.
    public static let board = Color(57, 65, 80)
    public static let tile = Color(236, 221, 186)
    public static let tileText = Color(50, 44, 36)
    /// The tile a hint says to slide: a warm glow around a lighter tile.
    public static let hintGlow = Color(255, 196, 64)
    public static let hintTile = Color(255, 240, 190)
    /// Over a hinted piece of a picture: the glow's colour, thin enough to see the piece through.
    public static let hintVeil = Color(255, 196, 64, alpha: 90)
    /// Under a piece's corner number: dark and half clear, legible on any picture.
    public static let cornerPatch = Color(20, 22, 30, alpha: 170)
    public static let statusText = Color(220, 226, 235)
    public static let button = Color(74, 85, 104)
    public static let buttonDisabled = Color(44, 51, 64)
    public static let buttonText = Color(240, 240, 240)
    public static let buttonTextDisabled = Color(120, 128, 140)
    /// Opaque: the tile numbers under the solved panel and the connecting band must not show through.
    public static let bannerBackground = Color(20, 24, 32)
    public static let bannerText = Color(255, 214, 102)
    /// The tilt gauge: its face, the release and trigger rings, and the bubble by state.
    public static let gaugeFace = Color(44, 51, 64)
    public static let gaugeRing = Color(120, 128, 140)
    public static let gaugeTrigger = Color(236, 221, 186)
    public static let gaugeWaiting = Color(150, 156, 168)
    public static let gaugeArmed = Color(110, 200, 120)
    public static let gaugeFired = Color(255, 150, 60)
    /// Laid over the board while there is no daemon: what it shows may be stale.
    public static let dim = Color(30, 36, 48, alpha: 170)
}
