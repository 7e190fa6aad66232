// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltCore
import TiltWire

/// Which way the picture is turned, as the window tells the daemon (docs/gui.md,
/// "Rotation"): the display's own word where the toolkit has one, a rotation chosen by
/// hand (`--screen-rotation`, the `o` key) over it. Pure: the window feeds it what
/// the display says and what the player chose, and sends `screen` when it says so.
public struct ScreenFollower: Equatable, Sendable {
    /// How a display says it is turned: the shape of the picture and which way up,
    /// as SDL names it (`SDL_DisplayOrientation`); `unknown` where the toolkit cannot tell.
    public enum Orientation: Equatable, Sendable {
        case unknown, landscape, landscapeFlipped, portrait, portraitFlipped
    }

    /// Chosen by hand: never replaced by what the display says.
    public private(set) var chosen: ScreenRotation?
    /// What the window's display says, while it says anything.
    public private(set) var reported: ScreenRotation?
    /// What the daemon was last told on this connection; nil: nothing yet.
    private var told: ScreenRotation?

    public init(chosen: ScreenRotation? = nil) {
        self.chosen = chosen
    }

    /// The rotation the window stands for; nil: neither the display nor the player says
    /// (the daemon's own, from its configuration, stays).
    public var wanted: ScreenRotation? { chosen ?? reported }

    /// The rotation a display turned this way shows the picture at, for a panel whose
    /// natural orientation is landscape (as SDL takes it for an output that gives no
    /// physical size, and as laptops and most tablets are). SDL names the shape the
    /// picture has: "portrait flipped" is the output turned a quarter clockwise, the
    /// picture's top on the panel's right edge, which is `screen-rotation` 90.
    public static func rotation(_ orientation: Orientation) -> ScreenRotation? {
        switch orientation {
        case .unknown: nil
        case .landscape: ScreenRotation.upright
        case .portraitFlipped: .quarter
        case .landscapeFlipped: .half
        case .portrait: .threeQuarters
        }
    }

    /// The rotation of a Wayland output with this `wl_output` transform. Wayland counts
    /// the picture turned counter-clockwise against the panel; `screen-rotation` counts
    /// the device turned, which is the other way round. A mirrored output (4 to 7) reads
    /// as its rotation.
    public static func rotation(waylandTransform transform: Int) -> ScreenRotation {
        ScreenRotation(degrees: 360 - 90 * (transform & 3)) ?? .upright
    }

    /// The display says it is turned so (at start, on a change, on another display);
    /// nil: it says nothing.
    public mutating func displayTurned(_ rotation: ScreenRotation?) {
        reported = rotation
    }

    /// The player chose (the `o` key): the next quarter turn after `current`,
    /// the daemon's rotation in force.
    public mutating func chooseNext(after current: ScreenRotation?) {
        chosen = UserAction.nextScreen(after: current ?? wanted)
    }

    /// A new connection: the daemon must be told again.
    public mutating func connected() { told = nil }

    /// What to send now, if anything; marks it told.
    public mutating func due() -> Command? {
        guard let wanted, wanted != told else { return nil }
        told = wanted
        return .screen(wanted)
    }
}
