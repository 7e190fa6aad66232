// SPDX-License-Identifier: GPL-3.0-or-later
/// Which display the window opens, from the environment, and what to say when it
/// cannot: the display tried and why, once (docs/gui.md, "No display"). SDL would
/// otherwise probe every driver it has, let a Wayland library complain on its own
/// about `XDG_RUNTIME_DIR`, and fall back to drawing off screen.
import TiltSystem
public struct DisplayChoice: Equatable, Sendable {
    /// The video driver to ask SDL for (`x11`, `wayland`); nil leaves SDL to choose.
    public var driver: String?
    /// Why no window can open before trying; nil when there is a display to try.
    public var missing: String?
    /// The display tried, for the message when it does not open: `the X display :55`.
    public var tried: String

    public init(environment: [String: String]) {
        let x11 = environment["DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
        let wayland = environment["WAYLAND_DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
        missing = nil
        switch (x11, wayland) {
        case (let x11?, nil):
            driver = "x11"
            tried = L("the X display {0}", x11)
        case (nil, let wayland?):
            driver = "wayland"
            tried = L("the Wayland display {0}", wayland)
        case (let x11?, let wayland?):
            driver = nil   // SDL prefers X11 where both are (XWayland); either will do
            tried = L("the X display {0} or the Wayland display {1}", x11, wayland)
        case (nil, nil):
            driver = nil
            tried = L("no display")
            missing = L("no display to show the board on: neither DISPLAY nor WAYLAND_DISPLAY is set")
        }
        // A driver asked for by name (`SDL_VIDEODRIVER=offscreen` for tests) is SDL's to use.
        if environment["SDL_VIDEODRIVER"].map({ !$0.isEmpty }) == true {
            driver = nil
            missing = nil
        }
    }

    /// The one line for a display that did not open, with SDL's reason.
    public func failure(reason: String) -> String {
        L("cannot open {0}: {1}", tried, reason)
    }
}
