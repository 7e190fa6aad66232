// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCommandLine
import TiltCore
import TiltSystem

/// The graphical board's command line, declared once: `tiltpuzzle gui` shows the
/// help and checks the options, `tiltpuzzle-gui` (which it runs) parses them.
public struct GUIOptions: Equatable, Sendable {
    public var socket: String?
    public var fullscreen = false
    public var windowSize = Size(width: 640, height: 800)
    public var font: String?
    public var frameStats = false
    /// Start with the sounds off (m turns them on).
    public var mute = false
    /// How the picture is turned, chosen by hand over what the display says.
    public var screenRotation: ScreenRotation?
    /// The picture to play with, as given (`PictureChoice(naming:)` reads it); nil: the kept choice.
    public var picture: String?

    static let fullscreenOption = OptionSpec("--fullscreen", help: L("Fill the screen (f switches while playing)."))
    static let windowOption = OptionSpec("--window", value: "WxH", help: L("The window's size in pixels (default 640x800)."))
    static let fontOption = OptionSpec("--font", value: "PATH", help: L("A TrueType font for the numbers (default: DejaVu Sans Bold)."))
    static let muteOption = OptionSpec("--mute", help: L("Start with the sounds off (m switches them while playing)."))
    static let frameStatsOption = OptionSpec("--frame-stats",
                                             help: L("After each burst of animation, print the frames drawn and their rate to stderr."))
    static let screenRotationOption = OptionSpec(
        "--screen-rotation", value: "DEGREES",
        help: L("How the picture is turned, {0} counter-clockwise, for a display that does not say (default: as the display says, else the daemon's).", ScreenRotation.allowedText))
    static let pictureOption = OptionSpec(
        "--picture", value: "FILE",
        help: L("Play with a picture: a PNG, JPEG, WebP or SVG file, one of the built-in pictures ({0}), or numbers (default: the last choice).", BuiltInPictures.all.map(\.name).joined(separator: ", ")))
    /// `tiltpuzzle-gui --version`; `tiltpuzzle --version` speaks for `tiltpuzzle gui`.
    public static let versionOption = OptionSpec("--version", help: L("Print the version and the license, and exit."))
    static let socketOption = OptionSpec("--socket", value: "PATH", help: L("The daemon's socket (default: as tiltpuzzle finds it)."))

    public static let spec = CommandSpec(
        "gui", summary: L("Play on a graphical board, by touch, mouse, keys or tilting the tablet."),
        options: [pictureOption, fullscreenOption, windowOption, fontOption, screenRotationOption, muteOption, frameStatsOption],
        discussion: L("Tap a tile in the gap's row or column to slide it there (another tile only shakes); swipe a tile to move it. Keys: arrows tilt, u undo, r redo, n new game (it asks during a game), g board size, c calibrate, h or ? hint, s sensitivity, o screen rotation, f full screen, p picture, v peek at the whole picture, m sound on and off, q or Escape quit. Asked about a new game: y or Enter starts it, n or Escape keeps the game, 3 to 6 choose the size. A slide, a bump and a solve each make a short sound. The window reconnects by itself when the daemon restarts."))

    /// `spec` as `tiltpuzzle-gui` reads it: there the socket is one of its own options.
    public static let standaloneSpec: CommandSpec = {
        var spec = GUIOptions.spec
        spec.options.insert(socketOption, at: 0)
        spec.options.append(versionOption)
        return spec
    }()

    public init() {}

    public init(_ arguments: ParsedArguments) throws(UsageError) {
        socket = arguments.value(Self.socketOption)
        fullscreen = arguments.flag(Self.fullscreenOption)
        font = arguments.value(Self.fontOption)
        // An empty path is a slip on the command line, not a file to look for.
        for (option, value) in [(Self.socketOption, socket), (Self.fontOption, font)] where value?.isEmpty == true {
            throw UsageError(L("{0} needs a path, not ''", option.name))
        }
        frameStats = arguments.flag(Self.frameStatsOption)
        picture = arguments.value(Self.pictureOption)
        if picture?.isEmpty == true { throw UsageError(L("--picture needs a file or a picture's name, not ''")) }
        mute = arguments.flag(Self.muteOption)
        if let size = try arguments.value(Self.windowOption, as: L("WIDTHxHEIGHT, each 160 to 16384 pixels (e.g. 640x800)"), Self.size) {
            windowSize = size
        }
        screenRotation = try arguments.value(Self.screenRotationOption, as: ScreenRotation.allowedText) {
            Int($0).flatMap(ScreenRotation.init(rawValue:))
        }
    }

    /// "640x800" (at least 160 pixels each way, so the panel's text still fits).
    static func size(_ text: String) -> Size? {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              (160...16384).contains(width), (160...16384).contains(height) else { return nil }
        return Size(width: Double(width), height: Double(height))
    }

    /// The options again as arguments, for handing them on to another program.
    public var arguments: [String] {
        var result: [String] = []
        if let socket { result += ["--socket", socket] }
        if fullscreen { result.append("--fullscreen") }
        result += ["--window", "\(Int(windowSize.width))x\(Int(windowSize.height))"]
        if let picture { result += ["--picture", picture] }
        if let font { result += ["--font", font] }
        if let screenRotation { result += ["--screen-rotation", String(screenRotation.degrees)] }
        if mute { result.append("--mute") }
        if frameStats { result.append("--frame-stats") }
        return result
    }
}
