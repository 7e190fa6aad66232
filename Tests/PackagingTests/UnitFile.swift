// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// A systemd unit file's settings: section → key → values in order (a key may repeat).
/// Enough for our own units: no line continuations, no drop-ins.
struct UnitFile {
    private(set) var sections: [String: [String: [String]]] = [:]

    init(_ text: String) {
        var section = ""
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast())
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            sections[section, default: [:]][key, default: []].append(value)
        }
    }

    /// Every value of `key` in `section`.
    func values(_ section: String, _ key: String) -> [String] { sections[section]?[key] ?? [] }

    /// The value in effect (the last one).
    func value(_ section: String, _ key: String) -> String? { values(section, key).last }
}
