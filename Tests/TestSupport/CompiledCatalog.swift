// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TiltSystem

/// A language's catalog (po/LL.po) compiled for gettext in a temporary folder, as
/// `make` installs it (LL/LC_MESSAGES/tiltpuzzle.mo), so the window's texts can be read
/// in that language in memory (`Localization.speaking`). The unit tests start no
/// programs, so this writes the .mo itself: the entries sorted by msgid, no hash table.
public enum CompiledCatalog {
    static let po = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../po").standardized

    /// The languages of po/LINGUAS.
    public static var languages: [String] {
        let text = (try? String(contentsOf: po.appendingPathComponent("LINGUAS"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.flatMap { $0.split(separator: " ").map(String.init) }
    }

    /// The locale a language is spoken in, as `scripts/setup` generates it.
    public static func locale(of language: String) -> String {
        ["de": "de_DE.UTF-8", "el": "el_GR.UTF-8", "ru": "ru_RU.UTF-8"][language] ?? "\(language).UTF-8"
    }

    /// The folder holding the compiled catalogs of every language.
    public static let directory: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiltpuzzle-catalogs-\(getpid())")
        for language in languages {
            let target = folder.appendingPathComponent("\(language)/LC_MESSAGES")
            try? FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            let entries = (try? String(contentsOf: po.appendingPathComponent("\(language).po"), encoding: .utf8)).map(parse) ?? []
            try? Data(mo(entries)).write(to: target.appendingPathComponent("tiltpuzzle.mo"))
        }
        return folder.path
    }()

    /// The po file's entries as gettext keys them: msgid (NUL msgid_plural) → msgstr (NUL-separated forms).
    static func parse(_ text: String) -> [(key: String, value: String)] {
        var entries: [(String, String)] = []
        var fields: [String: String] = [:]
        var current: String?
        func finish() {
            if let id = fields["msgid"] {
                let key = fields["msgid_plural"].map { id + "\0" + $0 } ?? id
                let forms = fields.keys.filter { $0.hasPrefix("msgstr[") }.sorted().compactMap { fields[$0] }
                entries.append((key, fields["msgstr"] ?? forms.joined(separator: "\0")))
            }
            fields = [:]
            current = nil
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { finish(); continue }
            if line.hasPrefix("#") { continue }
            if line.hasPrefix("\"") {
                if let current { fields[current, default: ""] += unquote(line) }
                continue
            }
            guard let space = line.firstIndex(of: " ") else { continue }
            current = String(line[..<space])
            fields[current!] = unquote(line[line.index(after: space)...])
        }
        finish()
        return entries
    }

    static func unquote(_ quoted: Substring) -> String {
        var result = ""
        var escaped = false
        for character in quoted.dropFirst().dropLast() {
            if escaped {
                result.append(character == "n" ? "\n" : character == "t" ? "\t" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// GNU's .mo layout: a header, the msgids' and the translations' (length, offset) tables, the strings.
    static func mo(_ entries: [(key: String, value: String)]) -> [UInt8] {
        let sorted = entries.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
        var out: [UInt8] = []
        func word(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { out += $0 } }
        let count = sorted.count, tables = 28
        var strings: [UInt8] = []
        var keys: [(Int, Int)] = [], values: [(Int, Int)] = []
        let stringsStart = tables + 16 * count
        for entry in sorted {
            keys.append((entry.key.utf8.count, stringsStart + strings.count))
            strings += Array(entry.key.utf8) + [0]
        }
        for entry in sorted {
            values.append((entry.value.utf8.count, stringsStart + strings.count))
            strings += Array(entry.value.utf8) + [0]
        }
        for value in [0x9504_12de, 0, count, tables, tables + 8 * count, 0, stringsStart] { word(value) }
        for (length, offset) in keys + values { word(length); word(offset) }
        return out + strings
    }
}
