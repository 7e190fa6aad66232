// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import TiltSystem
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `tiltpuzzle-gui` refusing to start: one line that names the program and what is
/// wrong, and the exit status of that kind of failure. No display is needed for any.
struct GUIStartFailureTests {
    static func run(_ arguments: [String], environment: [String: String?]) throws -> (status: Int32, errors: String) {
        var base: [String: String?] = ["DISPLAY": nil, "WAYLAND_DISPLAY": nil, "SDL_VIDEODRIVER": nil, "XDG_RUNTIME_DIR": nil]
        base.merge(environment) { $1 }
        let child = try ChildProcess([BuiltProducts.url("tiltpuzzle-gui").path] + arguments, environment: base,
                                     standardInput: .null, standardOutput: .discard, standardError: .pipe,
                                     otherDescriptors: .closed)
        let errors = String(decoding: child.readPipes().errors, as: UTF8.self)
        return (child.wait(), errors)
    }

    @Test(arguments: [
        (["--window", "100x100"], "tiltpuzzle-gui: --window expects WIDTHxHEIGHT, each 160 to 16384 pixels (e.g. 640x800), not '100x100'"),
        (["--window", "640x800x"], "tiltpuzzle-gui: --window expects WIDTHxHEIGHT, each 160 to 16384 pixels (e.g. 640x800), not '640x800x'"),
        (["--font", ""], "tiltpuzzle-gui: --font needs a path, not ''"),
    ])
    func aBadArgumentIsAUsageErrorInTheProgramsName(arguments: [String], message: String) throws {
        let result = try Self.run(arguments, environment: [:])
        #expect(result.status == 64)
        #expect(result.errors.split(separator: "\n").first.map(String.init) == message, "\(result.errors)")
    }

    /// The display tried and why it failed, once; with none named, nothing is tried
    /// (no Wayland library's own complaint about XDG_RUNTIME_DIR first).
    @Test func noDisplayIsSaidOnceWithTheDisplayTried() throws {
        let directory = TemporaryDirectory()
        // A display number no server listens on: its socket is not there.
        var number = 55
        while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") { number += 1 }
        let x11 = try Self.run(["--socket", directory.path + "/d.sock"], environment: ["DISPLAY": ":\(number)"])
        #expect(x11.status == 69)
        let lines = x11.errors.split(separator: "\n").map(String.init)
        #expect(lines.count == 1 && lines.first?.hasPrefix("tiltpuzzle-gui: cannot open the X display :\(number): ") == true,
                "\(x11.errors)")
        let none = try Self.run(["--socket", directory.path + "/d.sock"], environment: [:])
        #expect(none.status == 69)
        #expect(none.errors == "tiltpuzzle-gui: no display to show the board on: neither DISPLAY nor WAYLAND_DISPLAY is set\n")
    }
}
