// SPDX-License-Identifier: GPL-3.0-or-later
import TestSupport
import Testing
import TiltCore
import TiltGUI
import TiltSystem
import TiltWire

@Suite struct ButtonLabelTests {
    /// DejaVu Sans Bold's advances (the default font), in 2048ths of the pixel size, read
    /// from the hmtx table of fonts-dejavu-core's DejaVuSans-Bold.ttf: ASCII, the
    /// typography the catalogs use, and every letter of the Latin, German, Greek and
    /// Russian alphabets; digits are 1425 each. Anything else counts as m, 2134.
    static let advances: [Character: Double] = [
        // ASCII punctuation
        " ": 713, "!": 934, "\"": 1067, "#": 1716, "$": 1425, "%": 2052, "&": 1786, "'": 627,
        "(": 936, ")": 936, "*": 1071, "+": 1716, ",": 778, "-": 850, ".": 778, "/": 748,
        ":": 819, ";": 819, "<": 1716, "=": 1716, ">": 1716, "?": 1188, "@": 2048, "[": 936,
        "\\": 748, "]": 936, "^": 1716, "_": 1024, "`": 1024, "{": 1458, "|": 748, "}": 1458,
        "~": 1716,
        // Latin
        "A": 1585, "B": 1561, "C": 1503, "D": 1700, "E": 1399, "F": 1399, "G": 1681, "H": 1714,
        "I": 762, "J": 762, "K": 1587, "L": 1305, "M": 2038, "N": 1714, "O": 1741, "P": 1501,
        "Q": 1741, "R": 1577, "S": 1475, "T": 1397, "U": 1663, "V": 1585, "W": 2259, "X": 1579,
        "Y": 1483, "Z": 1485, "a": 1382, "b": 1466, "c": 1214, "d": 1466, "e": 1389, "f": 891,
        "g": 1466, "h": 1458, "i": 702, "j": 702, "k": 1362, "l": 702, "m": 2134, "n": 1458,
        "o": 1407, "p": 1466, "q": 1466, "r": 1010, "s": 1219, "t": 979, "u": 1458, "v": 1335,
        "w": 1892, "x": 1321, "y": 1335, "z": 1192,
        // German
        "Ä": 1585, "Ö": 1741, "Ü": 1663, "ä": 1382, "ö": 1407, "ü": 1458, "ß": 1473, "ẞ": 1835,
        // typography
        "«": 1323, "»": 1323, "„": 1346, "“": 1346, "”": 1346, "‘": 778, "’": 778, "–": 1024,
        "—": 2048, "…": 2048, "×": 1716, "°": 1024, "·": 778, "→": 1716,
        // Greek, with tonos and dialytika
        "Α": 1585, "Β": 1561, "Γ": 1305, "Δ": 1585, "Ε": 1399, "Ζ": 1485, "Η": 1714, "Θ": 1741,
        "Ι": 762, "Κ": 1587, "Λ": 1585, "Μ": 2038, "Ν": 1714, "Ξ": 1294, "Ο": 1741, "Π": 1714,
        "Ρ": 1501, "Σ": 1399, "Τ": 1397, "Υ": 1483, "Φ": 1741, "Χ": 1579, "Ψ": 1740, "Ω": 1741,
        "α": 1407, "β": 1466, "γ": 1395, "δ": 1407, "ε": 1140, "ζ": 1210, "η": 1458, "θ": 1407,
        "ι": 798, "κ": 1455, "λ": 1296, "μ": 1507, "ν": 1395, "ξ": 1210, "ο": 1407, "π": 1620,
        "ρ": 1466, "ς": 1214, "σ": 1595, "τ": 1307, "υ": 1383, "φ": 1602, "χ": 1321, "ψ": 1626,
        "ω": 1780, "Ά": 1633, "Έ": 1732, "Ή": 2066, "Ί": 1154, "Ό": 1824, "Ύ": 2007, "Ώ": 1831,
        "ά": 1407, "έ": 1140, "ή": 1458, "ί": 798, "ό": 1407, "ύ": 1383, "ώ": 1780, "Ϊ": 762,
        "Ϋ": 1483, "ϊ": 798, "ϋ": 1383, "ΐ": 798, "ΰ": 1383,
        // Russian
        "А": 1585, "Б": 1561, "В": 1561, "Г": 1305, "Д": 1824, "Е": 1399, "Ж": 2507, "З": 1455,
        "И": 1714, "Й": 1714, "К": 1674, "Л": 1701, "М": 2038, "Н": 1714, "О": 1741, "П": 1714,
        "Р": 1501, "С": 1503, "Т": 1397, "У": 1579, "Ф": 2031, "Х": 1579, "Ц": 1900, "Ч": 1655,
        "Ш": 2530, "Щ": 2715, "Ъ": 1924, "Ы": 2122, "Ь": 1561, "Э": 1503, "Ю": 2404, "Я": 1577,
        "Ё": 1399, "а": 1382, "б": 1430, "в": 1296, "г": 1070, "д": 1654, "е": 1389, "ж": 2038,
        "з": 1190, "и": 1435, "й": 1435, "к": 1390, "л": 1500, "м": 1674, "н": 1415, "о": 1407,
        "п": 1415, "р": 1466, "с": 1214, "т": 1187, "у": 1335, "ф": 2032, "х": 1321, "ц": 1518,
        "ч": 1406, "ш": 2175, "щ": 2264, "ъ": 1539, "ы": 1852, "ь": 1295, "э": 1214, "ю": 1991,
        "я": 1315, "ё": 1389,
    ]
    static func width(_ text: String, _ size: Double) -> Double {
        text.reduce(0) { $0 + ($1.isASCII && $1.isNumber ? 1425 : advances[$1] ?? 2134) } * size / 2048
    }

    /// Every label the buttons can show: each sensitivity (a preset or custom) and each board size.
    static func scenes() -> [BoardScene] {
        let sensitivities = [Sensitivity(trigger: 14, release: 7), Sensitivity(trigger: 20, release: 10),
                             Sensitivity(trigger: 28, release: 14), Sensitivity(trigger: 25, release: 12)]
        return Board.sides.flatMap { side in
            sensitivities.map { sensitivity in
                var scene = BoardScene()
                scene.connection = .connected
                _ = scene.receive(.state(GameState(puzzle: Puzzle(side: side), revision: 1, time: 0)))
                _ = scene.receive(.settings(sensitivity))
                return scene
            }
        }
    }

    /// Windows the panel has room in (docs/gui.md, Text): upright and on their side,
    /// from 360 to 2560 pixels a side.
    static let windows: [Size] = stride(from: 360.0, through: 2560, by: 55).flatMap { width in
        stride(from: 360.0, through: 2560, by: 55).compactMap { height in
            max(width, height) >= 480 ? Size(width: width, height: height) : nil
        }
    } + [Size(width: 640, height: 800), Size(width: 800, height: 1280), Size(width: 1280, height: 800)]

    /// The sensitivity and size buttons read "Tilt: …" and "Size: …" at 640×800 when
    /// their labels had one line's room: every label shows in full, value included.
    @Test func everyButtonShowsItsWholeLabelInEveryWindow() {
        let scenes = Self.scenes()
        #expect(scenes.map { $0.label(for: .sensitivity) }.contains("Tilt: custom (s)"))
        #expect(scenes.map { $0.label(for: .size) }.contains("Size: 10×10 (g)"))
        let cut = Self.cutLabels(scenes)
        let windows = Set(cut.map { $0.prefix { $0 != " " } }).sorted()
        #expect(cut.isEmpty, "\(cut.count) labels cut in \(windows.count) windows: \(windows); e.g. \(cut.first ?? "")")
    }

    /// The same in every language of po/ (German's words are long): the labels as the
    /// catalog says them, measured with the same advances.
    @Test(arguments: CompiledCatalog.languages)
    func everyButtonShowsItsWholeLabelInEveryWindowIn(language: String) throws {
        let locale = CompiledCatalog.locale(of: language)
        let outcome = Localization.speaking(locale, catalogs: CompiledCatalog.directory) { () -> ([String], [String]) in
            let scenes = Self.scenes()
            return (scenes.map { $0.label(for: .undo) }, Self.cutLabels(scenes))
        }
        let (undo, cut) = try #require(outcome, "no locale \(locale): scripts/setup generates it")
        // The catalog was read: the button does not say the English word.
        #expect(undo.allSatisfy { $0 != "Undo (u)" && $0.hasSuffix(" (u)") }, "\(undo.first ?? "")")
        let windows = Set(cut.map { $0.prefix { $0 != " " } }).sorted()
        #expect(cut.isEmpty, "\(language): \(cut.count) labels cut in \(windows.count) windows: \(windows); e.g. \(cut.first ?? "")")
    }

    /// Every label of `scenes` that does not fit its button, at every window size and board side.
    static func cutLabels(_ scenes: [BoardScene]) -> [String] {
        var cut: [String] = []
        for window in Self.windows {
            for side in [3, 10] {
                let layout = Layout(window: window, side: side)
                for button in layout.buttons {
                    #expect(button.frame.maxX <= window.width && button.frame.maxY <= window.height, "\(button.control) at \(window)")
                    for scene in scenes where scene.state?.size == side || button.control != .size {
                        let short = scene.shortLabel(for: button.control)
                        let width = button.frame.width - 2 * layout.buttonPadding
                        let fitted = ButtonLabel.fit(full: scene.label(for: button.control), short: short, width: width,
                                                     height: button.frame.height, size: layout.buttonTextSize,
                                                     minimum: layout.minimumText, measure: Self.width)
                        let shown = fitted.lines.joined(separator: " ")
                        guard shown.hasPrefix(short), fitted.lines.allSatisfy({ Self.width($0, fitted.size) <= width }),
                              Double(fitted.lines.count) * Layout.lineHeight * fitted.size <= button.frame.height else {
                            cut.append("\(Int(window.width))×\(Int(window.height)) \(side)×\(side): '\(scene.label(for: button.control))' as \(fitted.lines)")
                            continue
                        }
                        if fitted.size < layout.minimumText {
                            cut.append("\(Int(window.width))×\(Int(window.height)) \(side)×\(side): '\(scene.label(for: button.control))' below the legible size")
                        }
                    }
                }
            }
        }
        return cut
    }

    /// One character, one pixel per pixel of size: the order of what is tried.
    static func monospace(_ text: String, _ size: Double) -> Double { Double(text.count) * size }

    static func shown(_ lines: [String], _ size: Double) -> String { "\(lines) at \(size)" }

    @Test func theWholeLabelThenWithoutItsKeyThenOnTwoLinesThenSmaller() {
        func fit(width: Double, height: Double) -> String {
            let label = ButtonLabel.fit(full: "Tilt: gentle (s)", short: "Tilt: gentle", width: width, height: height, size: 2,
                            minimum: 1, measure: Self.monospace)
            return Self.shown(label.lines, label.size)
        }
        #expect(fit(width: 32, height: 3) == Self.shown(["Tilt: gentle (s)"], 2))
        #expect(fit(width: 24, height: 3) == Self.shown(["Tilt: gentle"], 2))
        #expect(fit(width: 12, height: 5) == Self.shown(["Tilt:", "gentle"], 2))
        // One line's room at 2: smaller, on one line.
        #expect(fit(width: 12, height: 3) == Self.shown(["Tilt: gentle"], 1))
        // Not even at the smallest size: cut, at the smallest.
        #expect(fit(width: 5, height: 1) == Self.shown(["Tilt: …"], 1))
    }
}
