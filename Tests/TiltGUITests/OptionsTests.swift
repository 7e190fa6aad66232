// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCommandLine
import TiltGUI

@Suite struct OptionsTests {
    func parse(_ arguments: [String]) throws -> GUIOptions {
        try GUIOptions(ParsedArguments(arguments, for: GUIOptions.standaloneSpec, program: "tiltpuzzle"))
    }

    @Test func defaultsAreAWindow() throws {
        let options = try parse([])
        #expect(options == GUIOptions())
        #expect(!options.fullscreen)
        #expect(!options.mute, "sound is on unless asked otherwise")
        #expect(options.windowSize == Size(width: 640, height: 800))
    }

    @Test func optionsSurviveBeingHandedOn() throws {
        let options = try parse(["--socket", "/tmp/s.sock", "--fullscreen", "--window", "800x600", "--font", "/f.ttf",
                                 "--mute", "--frame-stats"])
        #expect(options.socket == "/tmp/s.sock")
        #expect(options.mute)
        #expect(options.windowSize == Size(width: 800, height: 600))
        #expect(try parse(options.arguments) == options)
    }

    @Test(arguments: ["800", "x600", "80x600", "800x600x2", "wide", "640x800x", "640xx800", "x640x800", "100x100", "160x16385"])
    func badWindowSizesAreUsageErrors(text: String) {
        #expect(throws: UsageError.self) { try parse(["--window", text]) }
    }

    /// The message states the rule, and an empty path is a usage error like the others.
    @Test func aBadWindowSaysTheRuleAndAnEmptyPathIsAUsageError() throws {
        #expect(throws: UsageError("--window expects WIDTHxHEIGHT, each 160 to 16384 pixels (e.g. 640x800), not '100x100'")) {
            try parse(["--window", "100x100"])
        }
        #expect(throws: UsageError("--font needs a path, not ''")) { try parse(["--font", ""]) }
        #expect(throws: UsageError("--socket needs a path, not ''")) { try parse(["--socket", ""]) }
        #expect(try parse(["--window", "160x16384"]).windowSize == Size(width: 160, height: 16384))
    }

    @Test func theSubcommandHasNoSocketOptionOfItsOwn() {
        // `tiltpuzzle --socket PATH gui` gives it as a global option.
        #expect(!GUIOptions.spec.options.contains { $0.name == "--socket" })
        #expect(GUIOptions.standaloneSpec.options.contains { $0.name == "--socket" })
    }
}

@Suite struct FontLocatorTests {
    @Test func anExplicitFontMustExist() throws {
        #expect(throws: FontLocator.NotFound.self) {
            try FontLocator.locate(explicit: "/nowhere.ttf", exists: { _ in false }, fontconfig: { nil })
        }
        #expect(try FontLocator.locate(explicit: "/f.ttf", exists: { $0 == "/f.ttf" }, fontconfig: { nil }) == "/f.ttf")
    }

    @Test func knownPathsComeBeforeFontconfig() throws {
        let arch = "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf"
        #expect(try FontLocator.locate(explicit: nil, exists: { $0 == arch }, fontconfig: { "/other.ttf" }) == arch)
        #expect(try FontLocator.locate(explicit: nil, exists: { $0 == "/other.ttf" }, fontconfig: { "/other.ttf" })
                    == "/other.ttf")
    }

    @Test func withNoFontTheErrorSaysWhatToInstall() {
        do {
            _ = try FontLocator.locate(explicit: nil, exists: { _ in false }, fontconfig: { "/usr/share/fonts/x.pcf" })
            Issue.record("found a font where there is none")
        } catch {
            #expect(error.description.contains("fonts-dejavu-core"))
            #expect(error.description.contains("--font"))
        }
    }
}

@Suite struct FrameStatsTests {
    @Test func countsTheFramesOfOneBurst() {
        var stats = FrameStats()
        stats.slideQueued()
        stats.slideQueued()
        for frame in 0...12 { stats.frame(at: 10 + Double(frame) / 60) }
        let summary = stats.finish()
        #expect(summary == "frames: 13 in 200 ms (60 fps), 2 slides, longest frame 17 ms")
        #expect(!stats.isRunning)
        #expect(stats.finish() == nil)
    }

    @Test func theHelpNamesEveryKey() {
        // Read as one paragraph: the help wraps at word boundaries.
        let help = GUIOptions.spec.helpText(program: "tiltpuzzle").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for key in ["arrows tilt", "u undo", "r redo", "n new game", "g board size", "c calibrate", "h or ? hint",
                    "s sensitivity", "f full screen", "m sound on and off", "--mute", "q or Escape quit", "y or Enter", "3 to 6"] {
            #expect(help.contains(key), "gui --help lacks \(key)")
        }
    }
}
