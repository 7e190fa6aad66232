// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// One rule of a udev rules file: `KEY{attribute} OP "value"` pairs separated by commas,
/// continued over lines ending in a backslash (udev(7)).
struct UdevRule {
    struct Pair: Equatable, CustomStringConvertible {
        var key: String
        var attribute: String?
        var op: String
        var value: String

        var description: String { key + (attribute.map { "{\($0)}" } ?? "") + op + "\"" + value + "\"" }
        var isMatch: Bool { op == "==" || op == "!=" }
    }

    struct SyntaxError: Error, CustomStringConvertible {
        var line: Int
        var message: String
        var description: String { "line \(line): \(message)" }
    }

    var line: Int
    var pairs: [Pair]

    func contains(_ key: String, _ attribute: String? = nil, _ op: String, _ value: String) -> Bool {
        pairs.contains(Pair(key: key, attribute: attribute, op: op, value: value))
    }

    func values(_ key: String, _ attribute: String? = nil) -> [String] {
        pairs.filter { $0.key == key && $0.attribute == attribute }.map(\.value)
    }

    static let operators = ["==", "!=", "+=", "-=", ":=", "="]

    /// Every rule in a file, or the first line that is not one.
    static func parse(_ text: String) throws(SyntaxError) -> [UdevRule] {
        var rules: [UdevRule] = []
        var pending = ""
        var firstLine = 0
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if pending.isEmpty { firstLine = index + 1 }
            var line = String(raw)
            let continued = line.hasSuffix("\\")
            if continued { line.removeLast() }
            pending += line
            if continued { continue }
            let logical = pending.trimmingCharacters(in: .whitespaces)
            pending = ""
            if logical.isEmpty || logical.hasPrefix("#") { continue }
            rules.append(UdevRule(line: firstLine, pairs: try pairs(logical, line: firstLine)))
        }
        return rules
    }

    private static func pairs(_ text: String, line: Int) throws(SyntaxError) -> [Pair] {
        var pairs: [Pair] = []
        var rest = Substring(text)
        func fail(_ message: String) -> SyntaxError { SyntaxError(line: line, message: "\(message) at '\(rest.prefix(30))'") }
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            let key = rest.prefix { $0.isUppercase || $0 == "_" }
            guard !key.isEmpty else { throw fail("expected a key") }
            rest = rest.dropFirst(key.count)
            var attribute: String?
            if rest.first == "{" {
                guard let close = rest.firstIndex(of: "}") else { throw fail("unclosed {") }
                attribute = String(rest[rest.index(after: rest.startIndex)..<close])
                rest = rest[rest.index(after: close)...]
            }
            rest = rest.drop { $0 == " " || $0 == "\t" }
            guard let op = operators.first(where: { rest.hasPrefix($0) }) else { throw fail("expected an operator") }
            rest = rest.dropFirst(op.count).drop { $0 == " " || $0 == "\t" }
            guard rest.first == "\"" else { throw fail("expected a double-quoted value") }
            rest = rest.dropFirst()
            var value = ""
            while true {
                guard let character = rest.first else { throw fail("unterminated value") }
                rest = rest.dropFirst()
                if character == "\\", rest.first == "\"" {
                    value.append("\"")
                    rest = rest.dropFirst()
                } else if character == "\"" {
                    break
                } else {
                    value.append(character)
                }
            }
            pairs.append(Pair(key: String(key), attribute: attribute, op: op, value: value))
            rest = rest.drop { $0 == " " || $0 == "\t" }
            if rest.isEmpty { return pairs }
            guard rest.first == "," else { throw fail("expected a comma") }
            rest = rest.dropFirst()
        }
    }
}
