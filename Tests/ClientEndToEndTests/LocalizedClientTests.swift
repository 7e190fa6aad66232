// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import Testing
import TiltSystem

/// The built client in the player's language (docs/client.md, "Languages"): the
/// catalogs of po/ compiled by msgfmt into a temporary folder the client is pointed to
/// (TILTPUZZLE_LOCALEDIR), under locales scripts/setup generates; under C, the English
/// the other tests read.
struct LocalizedClientTests {
    /// What a language's player reads for the commands below.
    struct Language: Sendable, CustomTestStringConvertible {
        var code: String
        var locale: String
        var unknownCommand: String
        var seeHelp: String
        var nothingToUndo: String
        var noDaemon: String
        /// The status line's start after 1, 2, 5 and 21 moves on a 3×3 board.
        var gameLines: [Int: String]
        var hint: String
        /// The daemon's refusal of `calibrate` without a sensor, and a board written with a tile twice.
        var noSensor: String
        var repeatedTile: String
        /// The quiet demo's summary on a 2×2 board one tilt from solved: its counts and its end.
        var demoSummary: String
        var testDescription: String { code }
    }

    static let languages = [
        Language(code: "de", locale: "de_DE.UTF-8",
                 unknownCommand: "tiltpuzzle: unbekannter Befehl „bogus“", seeHelp: "(siehe „tiltpuzzle --help“)",
                 nothingToUndo: "nichts rückgängig zu machen", noDaemon: "tiltpuzzle: kein tiltpuzzled läuft (versucht: ",
                 gameLines: [1: "Spiel 3×3, 1 Zug, ", 2: "Spiel 3×3, 2 Züge, ", 5: "Spiel 3×3, 5 Züge, ", 21: "Spiel 3×3, 21 Züge, "],
                 hint: "7 nach links schieben — noch 2 Züge, optimal",
                 noSensor: "tiltpuzzle: zum Justieren braucht es einen Messwert des Sensors; ist ein Sensor angeschlossen? (no-sensor)",
                 repeatedTile: "tiltpuzzle: --board: Stein 7 steht zweimal da: jeder Stein einmal und ein leeres Feld (0 oder _)",
                 demoSummary: "Demo: 1 Kippbewegung, 1 Zug, 0:00 Spielzeit: gelöst"),
        Language(code: "el", locale: "el_GR.UTF-8",
                 unknownCommand: "tiltpuzzle: άγνωστη εντολή «bogus»", seeHelp: "(δείτε «tiltpuzzle --help»)",
                 nothingToUndo: "τίποτα για αναίρεση", noDaemon: "tiltpuzzle: δεν τρέχει κανένα tiltpuzzled (δοκιμάστηκαν: ",
                 gameLines: [1: "παιχνίδι 3×3, 1 κίνηση, ", 2: "παιχνίδι 3×3, 2 κινήσεις, ", 5: "παιχνίδι 3×3, 5 κινήσεις, ",
                             21: "παιχνίδι 3×3, 21 κινήσεις, "],
                 hint: "σύρετε το 7 αριστερά — μένουν 2 κινήσεις, βέλτιστη",
                 noSensor: "tiltpuzzle: η βαθμονόμηση χρειάζεται μια μέτρηση του αισθητήρα· είναι συνδεδεμένος αισθητήρας; (no-sensor)",
                 repeatedTile: "tiltpuzzle: --board: το πλακίδιο 7 γράφτηκε δύο φορές: κάθε πλακίδιο μία φορά και ένα κενό κελί (0 ή _)",
                 demoSummary: "επίδειξη: 1 κλίση, 1 κίνηση, 0:00 παιχνιδιού: λύθηκε"),
        // Three forms: 1 and 21 ход, 2 хода, 5 ходов.
        Language(code: "ru", locale: "ru_RU.UTF-8",
                 unknownCommand: "tiltpuzzle: неизвестная команда «bogus»", seeHelp: "(см. «tiltpuzzle --help»)",
                 nothingToUndo: "нечего отменять", noDaemon: "tiltpuzzle: tiltpuzzled не запущен (проверено: ",
                 gameLines: [1: "игра 3×3, 1 ход, ", 2: "игра 3×3, 2 хода, ", 5: "игра 3×3, 5 ходов, ", 21: "игра 3×3, 21 ход, "],
                 hint: "сдвиньте 7 влево — осталось 2 хода, оптимально",
                 noSensor: "tiltpuzzle: для калибровки нужен отсчёт датчика; датчик подключён? (no-sensor)",
                 repeatedTile: "tiltpuzzle: --board: фишка 7 написана дважды: каждая фишка один раз и одна пустая клетка (0 или _)",
                 demoSummary: "демо: 1 наклон, 1 ход, время игры 0:00: решено"),
    ]

    /// The catalogs of po/LINGUAS compiled as they are installed: LL/LC_MESSAGES/tiltpuzzle.mo.
    static func compiledCatalogs(in directory: TestSupport.TemporaryDirectory) throws -> String {
        let po = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../po").standardized.path
        let root = directory.path + "/locale"
        for language in languages.map(\.code) {
            let folder = "\(root)/\(language)/LC_MESSAGES"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let child = try ChildProcess(["msgfmt", "--check", "-o", folder + "/tiltpuzzle.mo", "\(po)/\(language).po"],
                                         standardInput: .null, standardOutput: .pipe, standardError: .pipe, otherDescriptors: .closed)
            let (_, errors) = child.readPipes(limit: 1 << 20)
            guard child.wait() == 0 else { throw TestFailure("msgfmt \(language).po: \(String(decoding: errors, as: UTF8.self))") }
        }
        return root
    }

    static func run(_ arguments: [String], _ language: Language?, catalogs: String) throws -> ClientResult {
        try Client.run(arguments, environment: ["LANG": language?.locale ?? "C", "LC_ALL": "", "LANGUAGE": "",
                                                "TILTPUZZLE_LOCALEDIR": catalogs])
    }

    @Test(arguments: languages)
    func theClientSpeaksTheLanguage(_ language: Language) throws {
        let directory = TestSupport.TemporaryDirectory()
        let catalogs = try Self.compiledCatalogs(in: directory)
        let daemon = try DaemonProcess(directory: directory)
        let socket = ["--socket", daemon.socketPath]

        let usage = try Self.run(["bogus"], language, catalogs: catalogs)
        #expect(usage.status == 64)
        #expect(usage.stderrLines == [language.unknownCommand, language.seeHelp])

        let unreachable = try Self.run(["--socket", directory.path + "/none.sock", "status"], language, catalogs: catalogs)
        #expect(unreachable.status == 69)
        #expect(unreachable.stderr.hasPrefix(language.noDaemon), "\(unreachable.stderr)")

        #expect(try Self.run(socket + ["new", "--size", "3", "--no-shuffle"], language, catalogs: catalogs).status == 0)
        let undo = try Self.run(socket + ["undo"], language, catalogs: catalogs)
        #expect(undo.status == 2)
        #expect(undo.stdout == language.nothingToUndo + "\n")

        // A tilt right then left, over and over: a move each.
        for moves in 1...21 {
            #expect(try Self.run(socket + ["tilt", moves % 2 == 1 ? "right" : "left"], nil, catalogs: catalogs).status == 0)
            guard let expected = language.gameLines[moves] else { continue }
            let status = try Self.run(socket + ["status"], language, catalogs: catalogs)
            #expect(status.stdoutLines.contains { $0.hasPrefix(expected) }, "\(moves) moves: \(status.stdout)")
        }

        // 1 2 3 | 4 5 6 | _ 7 8: two tilts left.
        #expect(try Self.run(socket + ["new", "--board", "1 2 3 4 5 6 _ 7 8"], nil, catalogs: catalogs).status == 0)
        #expect(try Self.run(socket + ["hint"], language, catalogs: catalogs).stdout == language.hint + "\n")

        // The daemon refuses in English; the client says it in the language.
        let calibrate = try Self.run(socket + ["calibrate"], language, catalogs: catalogs)
        #expect(calibrate.status == 1)
        #expect(calibrate.stderrLines == [language.noSensor])
        let board = try Self.run(socket + ["new", "--board", "1 2 3 4 5 6 7 7 _"], language, catalogs: catalogs)
        #expect(board.status == 64)
        #expect(board.stderrLines.first == language.repeatedTile, "\(board.stderr)")
    }

    /// The demo's narration: its summary, in the language, with the plural of each count.
    @Test(arguments: languages)
    func theDemoNarratesInTheLanguage(_ language: Language) throws {
        let directory = TestSupport.TemporaryDirectory()
        let catalogs = try Self.compiledCatalogs(in: directory)
        // Seed 3 shuffles the 2×2 board one tilt from solved.
        let demo = try Self.run(["demo", "--size", "2", "--seed", "3", "--quiet", "--speed", "20"], language, catalogs: catalogs)
        #expect(demo.status == 0)
        // The play time is the replay's, a clock of its own: only its place is checked.
        let around = language.demoSummary.components(separatedBy: "0:00")
        #expect(demo.stdout.hasPrefix(around[0]) && demo.stdout.hasSuffix(around[1] + "\n"), "\(demo.stdout)")
    }

    /// Under C, with the catalogs there to be found, the client says what it always said.
    @Test func underCTheClientSpeaksEnglish() throws {
        let directory = TestSupport.TemporaryDirectory()
        let catalogs = try Self.compiledCatalogs(in: directory)
        let daemon = try DaemonProcess(directory: directory)
        let usage = try Self.run(["bogus"], nil, catalogs: catalogs)
        #expect(usage.stderrLines == ["tiltpuzzle: unknown command 'bogus'", "(see 'tiltpuzzle --help')"])
        #expect(try Self.run(["--socket", daemon.socketPath, "new", "--size", "3", "--no-shuffle"], nil, catalogs: catalogs).status == 0)
        #expect(try Self.run(["--socket", daemon.socketPath, "undo"], nil, catalogs: catalogs).stdout == "nothing to undo\n")
        #expect(try Self.run(["--socket", daemon.socketPath, "tilt", "right"], nil, catalogs: catalogs).status == 0)
        let status = try Self.run(["--socket", daemon.socketPath, "status"], nil, catalogs: catalogs)
        #expect(status.stdoutLines.contains { $0.hasPrefix("3×3 game, 1 move, ") }, "\(status.stdout)")
        #expect(try Self.run(["--socket", daemon.socketPath, "calibrate"], nil, catalogs: catalogs).stderrLines
                == ["tiltpuzzle: calibration needs a sensor sample; is a sensor attached? (no-sensor)"])
        #expect(try Self.run(["--socket", daemon.socketPath, "new", "--board", "1 2 3 4 5 6 7 7 _"], nil, catalogs: catalogs).stderrLines.first
                == "tiltpuzzle: --board: tile 7 is written twice: each tile once, and one empty cell (0 or _)")
    }
}
