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
