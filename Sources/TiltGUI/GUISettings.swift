// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem

/// What the window keeps across its restarts (docs/gui.md, Pictures): the picture the
/// tiles show, the numbers in their corners, sound. The file is the player's to read
/// and edit, so it is lines of `key = value` under a comment, not JSON.
///
/// ```
/// # tiltpuzzle-gui settings (docs/gui.md, Pictures)
/// picture = /home/ann/Pictures/Sea at dawn.jpg
/// number-corners = auto
/// sound = on
/// ```
///
/// `picture` is `numbers`, `built-in:NAME` or an absolute path. A value is the rest of
/// the line after the first `=`, spaces and tabs around it dropped, so a path may hold
/// spaces, `=` and any UTF-8; one that starts or ends with a space, starts with `"`
/// or holds a control character or a line separator is written in double quotes, with
/// `\\`, `\"`, `\n`, `\r`, `\t` and `\u{HEX}` inside. Blank lines and lines starting with
/// `#` are skipped, keys not known here are ignored (a later version's), missing ones
/// take their default, and a later line wins over an earlier one.
public struct GUISettings: Equatable, Sendable {
    public var picture: PictureChoice
    public var numberCorners: NumberCorners
    public var sound: Bool

    public init(picture: PictureChoice = .numbers, numberCorners: NumberCorners = .automatic, sound: Bool = true) {
        self.picture = picture
        self.numberCorners = numberCorners
        self.sound = sound
    }

    /// What a first start, or a missing or damaged file, gives.
    public static let defaults = GUISettings()

    /// `tiltpuzzle/gui.conf` in the config home (`ConfigHome`); nil without one, and
    /// then nothing is kept.
    public static func path(environment: [String: String]) -> String? {
        ConfigHome.path(environment: environment).map { $0 + "/tiltpuzzle/gui.conf" }
    }

    /// The file is a few lines; anything much larger is not ours.
    public static let sizeLimit = 64 * 1024

    /// Why a file could not be read as settings; its description is the reason the
    /// window gives when it moves the file aside.
    public struct Damage: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    public static let header = "# tiltpuzzle-gui settings (docs/gui.md, Pictures); the window rewrites this file"

    public func encoded() -> [UInt8] {
        let lines = [
            Self.header,
            "picture = " + Self.quotedIfNeeded(Self.text(of: picture)),
            "number-corners = " + numberCorners.rawValue,
            "sound = " + (sound ? "on" : "off"),
        ]
        return Array(lines.joined(separator: "\n").utf8) + [UInt8(ascii: "\n")]
    }

    public static func decode(_ bytes: [UInt8]) throws(Damage) -> GUISettings {
        guard bytes.count <= sizeLimit else { throw Damage(L("over {0} KiB", sizeLimit / 1024)) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw Damage(L("not UTF-8 text")) }
        var settings = GUISettings()
        // Lines end at a line feed only (a carriage return before it dropped), so a
        // quoted value's other separators stay inside it.
        for (offset, rawLine) in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = String(String.UnicodeScalarView(rawLine))
            if line.unicodeScalars.last == "\r" { line.unicodeScalars.removeLast() }
            let trimmed = trimmed(line)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let number = offset + 1
            guard let equals = trimmed.firstIndex(of: "=") else { throw Damage(L("line {0} is not key = value", number)) }
            let key = self.trimmed(String(trimmed[..<equals]))
            guard !key.isEmpty else { throw Damage(L("line {0} is not key = value", number)) }
            let value = try unquoted(self.trimmed(String(trimmed[trimmed.index(after: equals)...])), line: number)
            switch key {
            case "picture":
                guard let picture = choice(value) else {
                    throw Damage(L("line {0}: picture is '{1}', not numbers, built-in:NAME or an absolute path", number, shown(value)))
                }
                settings.picture = picture
            case "number-corners":
                guard let corners = NumberCorners(rawValue: value) else {
                    throw Damage(L("line {0}: number-corners is '{1}', not auto, on or off", number, shown(value)))
                }
                settings.numberCorners = corners
            case "sound":
                guard value == "on" || value == "off" else { throw Damage(L("line {0}: sound is '{1}', not on or off", number, shown(value))) }
                settings.sound = value == "on"
            default:
                continue
            }
        }
        return settings
    }

    /// A value as a reason shows it: on one line, and not all of a long one.
    static func shown(_ value: String) -> String {
        let quoted = quotedIfNeeded(value)
        return quoted.count > 80 ? String(quoted.prefix(79)) + "…" : quoted
    }

    static let builtInPrefix = "built-in:"

    static func text(of picture: PictureChoice) -> String {
        switch picture {
        case .numbers: "numbers"
        case .builtIn(let name): builtInPrefix + name
        case .file(let path): path
        }
    }

    static func choice(_ text: String) -> PictureChoice? {
        if text == "numbers" { return .numbers }
        if text.hasPrefix(builtInPrefix), text.count > builtInPrefix.count { return .builtIn(String(text.dropFirst(builtInPrefix.count))) }
        if text.hasPrefix("/") { return .file(text) }
        return nil
    }

    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        let blank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = scalars.firstIndex(where: { !blank($0) }), let last = scalars.lastIndex(where: { !blank($0) }) else {
            return ""
        }
        return String(scalars[first...last])
    }

    /// A scalar that would end or hide a line in an editor, or cannot be seen.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
    }

    static func quotedIfNeeded(_ value: String) -> String {
        let scalars = value.unicodeScalars
        let plain = !value.isEmpty && scalars.first != " " && scalars.first != "\t" && scalars.last != " "
            && scalars.last != "\t" && scalars.first != "\"" && !scalars.contains(where: needsEscape)
        if plain { return value }
        var quoted = "\""
        for scalar in scalars {
            switch scalar {
            case "\\": quoted += "\\\\"
            case "\"": quoted += "\\\""
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case _ where needsEscape(scalar): quoted += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    static func unquoted(_ value: String, line: Int) throws(Damage) -> String {
        guard value.hasPrefix("\"") else { return value }
        var scalars = value.unicodeScalars.dropFirst()[...]
        var result = String.UnicodeScalarView()
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\"":
                guard scalars.isEmpty else { throw Damage(L("line {0}: text after the closing quote", line)) }
                return String(result)
            case "\\":
                switch scalars.popFirst() {
                case "\\": result.append("\\")
                case "\"": result.append("\"")
                case "n": result.append("\n")
                case "r": result.append("\r")
                case "t": result.append("\t")
                case "u":
                    guard scalars.popFirst() == "{", let close = scalars.firstIndex(of: "}"),
                          let value = UInt32(String(String.UnicodeScalarView(scalars[..<close])), radix: 16),
                          let escaped = Unicode.Scalar(value) else {
                        throw Damage(L("line {0}: a \\u escape is not \\u{HEX}", line))
                    }
                    result.append(escaped)
                    scalars = scalars[scalars.index(after: close)...]
                default: throw Damage(L("line {0}: an unknown escape after \\", line))
                }
            default: result.append(scalar)
            }
        }
        throw Damage(L("line {0}: a quote is not closed", line))
    }
}
