// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltGUI

@Suite struct DisplayChoiceTests {
    /// `DISPLAY=:55` with no server said "neither DISPLAY nor WAYLAND_DISPLAY is set":
    /// the message names the display tried, and only its driver is tried.
    @Test func theDisplayTriedIsNamed() {
        let x11 = DisplayChoice(environment: ["DISPLAY": ":55"])
        #expect(x11.driver == "x11" && x11.missing == nil)
        #expect(x11.failure(reason: "No available video device") == "cannot open the X display :55: No available video device")
        let wayland = DisplayChoice(environment: ["WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ""])
        #expect(wayland.driver == "wayland")
        #expect(wayland.failure(reason: "no compositor") == "cannot open the Wayland display wayland-1: no compositor")
        let both = DisplayChoice(environment: ["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"])
        #expect(both.driver == nil && both.failure(reason: "r") == "cannot open the X display :0 or the Wayland display wayland-0: r")
    }

    @Test func withNeitherNothingIsTried() {
        let none = DisplayChoice(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"])
        #expect(none.missing == "no display to show the board on: neither DISPLAY nor WAYLAND_DISPLAY is set")
        // A driver asked for by name is SDL's to open (the tests' offscreen one).
        let named = DisplayChoice(environment: ["SDL_VIDEODRIVER": "offscreen"])
        #expect(named.missing == nil && named.driver == nil)
    }
}
