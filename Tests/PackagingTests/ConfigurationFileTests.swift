// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltDaemon

/// docs/tiltpuzzled.conf, installed as /etc/tiltpuzzle/tiltpuzzled.conf: every key of
/// `Configuration.keys` in its section, commented out, with its default.
@Suite struct ConfigurationFileTests {
    /// Section → the commented-out settings (`#key = value`) under it, in order.
    static func commentedSettings(_ text: String) -> [String: [(key: String, value: String)]] {
        var result: [String: [(key: String, value: String)]] = [:]
        var section = ""
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") && line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast())
                result[section, default: []] = result[section] ?? []
            } else if line.hasPrefix("#"), !line.hasPrefix("# "), let equals = line.firstIndex(of: "=") {
                let key = line[line.index(after: line.startIndex)..<equals].trimmingCharacters(in: .whitespaces)
                let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                result[section, default: []].append((key, value))
            }
        }
        return result
    }

    @Test func listsEveryKeyWithItsDefault() throws {
        let settings = Self.commentedSettings(try Repository.text("docs/tiltpuzzled.conf"))
        for key in Configuration.keys {
            let found = settings[key.section]?.filter { $0.key == key.name } ?? []
            #expect(found.count == 1, "[\(key.section)] \(key.name) appears once")
            #expect(found.first?.value == key.defaultValue, "[\(key.section)] \(key.name) shows its default")
        }
        let listed = settings.flatMap { section, entries in entries.map { "\(section).\($0.key)" } }
        let known = Configuration.keys.map { "\($0.section).\($0.name)" }
        #expect(Set(listed) == Set(known), "no key the daemon does not know")
        #expect(Set(settings.keys) == Set(Configuration.keys.map(\.section)))
    }

    @Test func theDaemonReadsItAsTheDefaultsAsShippedAndUncommented() throws {
        let text = try Repository.text("docs/tiltpuzzled.conf")
        #expect(try Configuration.parse(text) == Configuration())
        // Uncommenting every setting changes nothing either: the values shown are the defaults.
        let uncommented = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("#") && !line.hasPrefix("# ") && line.contains("=") ? String(line.dropFirst()) : String(line)
        }.joined(separator: "\n")
        #expect(uncommented != text)
        #expect(try Configuration.parse(uncommented) == Configuration())
    }
}
