// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltSystem
import TiltCommandLine
import TiltGUI
#if canImport(Glibc)
import Glibc
#endif

/// `tiltpuzzle-gui [options]`: parses the command line, finds a font, opens the
/// window and runs until the player quits. Returns the exit status.
public enum GUIMain {
    /// The name its messages start with: run directly, it is not `tiltpuzzle` (which
    /// checks the options itself before it runs this program).
    static let program = "tiltpuzzle-gui"

    public static func run(arguments: [String]) -> Int32 {
        // The player's language before any text is made (docs/client.md, "Languages").
        Localization.start()
        // This program is what `tiltpuzzle gui` runs: help and errors speak of that command.
        let spec = GUIOptions.standaloneSpec
        let options: GUIOptions
        do throws(UsageError) {
            let parsed = try ParsedArguments(arguments, for: spec, program: "tiltpuzzle")
            if parsed.wantsHelp {
                print(spec.helpText(program: "tiltpuzzle"), terminator: "")
                return 0
            }
            if parsed.flag(GUIOptions.versionOption) {
                print("\(program) \(ProductVersion.current)")
                print(ProductVersion.license)
                return 0
            }
            options = try GUIOptions(parsed)
        } catch {
            return StandardError.report(error, program: program, help: "tiltpuzzle gui")
        }
        let fontPath: String
        do throws(FontLocator.NotFound) {
            fontPath = try FontLocator.locate(explicit: options.font, exists: { access($0, R_OK) == 0 },
                                              fontconfig: FontConfig.boldSans)
        } catch {
            fail(error.description)
            return ExitStatus.missingFile
        }
        do {
            try TrueType.start()
            defer { TrueType.stop() }
            // A file that is no font would leave every label out: refused before any window opens.
            do throws(FontError) {
                let font = try Font(path: fontPath, size: 16)
                // A font without this language's letters: said once, and the game goes on.
                let missing = FontCoverage.missing(in: FontCoverage.sample, provided: font.provides)
                if let line = FontCoverage.warning(font: fontPath, missing: missing) { StandardError.print("\(program): \(line)") }
            } catch {
                fail(error.description)
                return ExitStatus.dataError
            }
            try SDLEvents.start(DisplayChoice(environment: ProcessEnvironment.current))
            defer { SDLEvents.stop() }
            let candidates = DaemonConnection.candidatePaths(explicit: options.socket, environment: ProcessEnvironment.current)
            try GUIApp(options: options, fontPath: fontPath, candidates: candidates).run()
        } catch {
            fail("\(error)")
            return ExitStatus.unavailable   // no display, or it cannot draw
        }
        return 0
    }

    private static func fail(_ message: String) {
        StandardError.print("\(program): \(message)")
    }
}
