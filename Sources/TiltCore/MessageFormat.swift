// SPDX-License-Identifier: GPL-3.0-or-later
/// A message's placeholders: `{0}`, `{1}`… stand for the arguments by position, so a
/// translation may order them as its language does (`{1} … {0}`), use one twice or
/// leave one out. Any other brace is text (po/tiltpuzzle.pot says so to translators).
public enum MessageFormat {
    public static func fill(_ template: String, _ arguments: [String]) -> String {
        guard template.contains("{") else { return template }
        var result = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let after = rest[rest.index(after: open)...]
            let digits = after.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, digits.endIndex < after.endIndex, after[digits.endIndex] == "}",
               let index = Int(digits), index < arguments.count {
                result += arguments[index]
                rest = after[after.index(after: digits.endIndex)...]
            } else {
                result.append("{")
                rest = after
            }
        }
        return result + rest
    }
}

extension MessageFormat {
    /// The arguments that make `template` read `text`: `fill`'s inverse, for a sentence
    /// another program wrote from a template both know (a daemon's refusal, shown by a
    /// client in the player's language). nil when `text` is not of that template.
    public static func arguments(of template: String, in text: String) -> [String]? {
        var pieces: [(literal: Substring, placeholder: Int?)] = []
        var rest = template[...]
        var literal = ""[...]
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            let digits = after.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, digits.endIndex < after.endIndex, after[digits.endIndex] == "}", let index = Int(digits) {
                pieces.append((template[literal.startIndex..<open], index))
                rest = after[after.index(after: digits.endIndex)...]
                literal = rest
            } else {
                rest = after
            }
        }
        pieces.append((template[literal.startIndex...], nil))
        let count = (pieces.compactMap(\.placeholder).max() ?? -1) + 1
        var found = [String?](repeating: nil, count: count)
        guard match(pieces[...], text[...], &found) else { return nil }
        let arguments = found.map { $0 ?? "" }
        return fill(template, arguments) == text ? arguments : nil
    }

    /// Each literal in turn, each placeholder the shortest text that lets the rest match.
    private static func match(_ pieces: ArraySlice<(literal: Substring, placeholder: Int?)>, _ text: Substring,
                              _ found: inout [String?]) -> Bool {
        guard let piece = pieces.first else { return text.isEmpty }
        guard text.hasPrefix(piece.literal) else { return false }
        let rest = text.dropFirst(piece.literal.count)
        guard let placeholder = piece.placeholder else { return pieces.count == 1 ? rest.isEmpty : false }
        var end = rest.startIndex
        while true {
            let saved = found[placeholder]
            let value = String(rest[..<end])
            if saved == nil || saved == value {
                found[placeholder] = value
                if match(pieces.dropFirst(), rest[end...], &found) { return true }
                found[placeholder] = saved
            }
            guard end < rest.endIndex else { return false }
            end = rest.index(after: end)
        }
    }
}
