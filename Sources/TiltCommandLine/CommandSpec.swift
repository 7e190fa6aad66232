// SPDX-License-Identifier: GPL-3.0-or-later
/// A command-line interface declared once: the parser and the help text both
/// come from these declarations.
import TiltSystem
public struct OptionSpec: Sendable {
    public var name: String
    /// The value's placeholder in help (`PATH`); nil for a flag.
    public var valueName: String?
    public var help: String
    /// A one-letter alias (`-o` for `--output`).
    public var short: Character?

    public init(_ name: String, short: Character? = nil, value valueName: String? = nil, help: String) {
        self.name = name
        self.short = short
        self.valueName = valueName
        self.help = help
    }

    var isFlag: Bool { valueName == nil }
    var usage: String {
        let names = short.map { "-\($0), \(name)" } ?? name
        return valueName.map { "\(names) \($0)" } ?? names
    }
}

public struct ArgumentSpec: Sendable {
    public var name: String
    public var help: String
    public var isOptional: Bool

    public init(_ name: String, help: String, optional: Bool = false) {
        self.name = name
        self.help = help
        self.isOptional = optional
    }

    var usage: String { isOptional ? "[\(name)]" : name }
}

public struct CommandSpec: Sendable {
    public var name: String
    public var summary: String
    public var arguments: [ArgumentSpec]
    public var options: [OptionSpec]
    public var discussion: String?

    public init(_ name: String, summary: String, arguments: [ArgumentSpec] = [],
                options: [OptionSpec] = [], discussion: String? = nil) {
        self.name = name
        self.summary = summary
        self.arguments = arguments
        self.options = options
        self.discussion = discussion
    }

    static let help = OptionSpec("--help", help: L("Show this help."))

    var allOptions: [OptionSpec] { options + [CommandSpec.help] }

    /// `name [options] ARG [ARG]`
    public var usageLine: String {
        var parts: [String] = [name]
        if !options.isEmpty { parts.append(L("[options]")) }
        parts += arguments.map(\.usage)
        return parts.joined(separator: " ")
    }

    /// How a user types this command: `tiltpuzzle status`; a program's own spec
    /// (tiltpuzzled) is named after it, and the name is said once.
    public func invocation(program: String) -> String {
        name == program ? program : "\(program) \(name)"
    }

    /// The full help text for this command.
    public func helpText(program: String) -> String {
        let usage = name == program ? usageLine : "\(program) \(usageLine)"
        var text = "\(Self.paragraph(summary))\n\n" + L("Usage: {0}", usage) + "\n"
        if !arguments.isEmpty {
            text += "\n" + L("Arguments:") + "\n" + Self.table(arguments.map { ($0.name, $0.help) })
        }
        text += "\n" + L("Options:") + "\n" + Self.table(allOptions.map { ($0.usage, $0.help) })
        if let discussion { text += "\n\(Self.paragraph(discussion))\n" }
        return text
    }

    /// Help fits a classic terminal: rows are wrapped to this many columns.
    public static let helpWidth = 80

    static func table(_ rows: [(String, String)]) -> String {
        let width = min(24, rows.map(\.0.count).max() ?? 0)
        let indent = String(repeating: " ", count: width + 4)
        return rows.map { left, right in
            let lines = wrap(right, width: helpWidth - indent.count)
            // A left column too long for the table puts its text on the next line.
            let first = left.count <= width
                ? "  \(left)" + String(repeating: " ", count: width - left.count + 2) + lines[0]
                : "  \(left)\n" + indent + lines[0]
            return ([first] + lines.dropFirst().map { indent + $0 }).joined(separator: "\n") + "\n"
        }.joined()
    }

    /// `text` wrapped to the help width at word boundaries. Its lines are joined into
    /// paragraphs first (the source breaks them where it likes); a blank line ends a
    /// paragraph, and a line that starts with a space or "- " starts a new one.
    public static func paragraph(_ text: String) -> String {
        var paragraphs: [String] = []
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.isEmpty {
                if let current { paragraphs.append(current) }
                paragraphs.append("")
                current = nil
            } else if let joined = current, !line.hasPrefix(" "), !line.hasPrefix("- ") {
                current = joined + " " + line
            } else {
                if let current { paragraphs.append(current) }
                current = line
            }
        }
        if let current { paragraphs.append(current) }
        return paragraphs.flatMap { wrap($0, width: helpWidth) }.joined(separator: "\n")
    }

    /// Splits `text` at spaces into lines of at most `width` characters (a longer
    /// word stands alone on its line).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + [line]
    }
}

/// A usage mistake: reported in one line with a hint, exit status 64 (EX_USAGE).
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public var hint: String?
    /// Lines printed between the message and the hint (the commands, when none was given).
    public var details: String?

    public init(_ message: String, hint: String? = nil, details: String? = nil) {
        self.message = message
        self.hint = hint
        self.details = details
    }

    public static let exitStatus = ExitStatus.usage

    public var description: String { message }
}
