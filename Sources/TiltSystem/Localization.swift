// SPDX-License-Identifier: GPL-3.0-or-later
import CLinux
import TiltCore
#if canImport(Glibc)
import Glibc
#endif

/// The words a person reads, in their language: glibc's gettext over the catalogs of
/// the text domain `tiltpuzzle` (po/, docs/translating.md). Without `start`, under
/// `LANG=C`, in a language without a catalog or with the catalog missing, every
/// message is its English msgid, so the English output is the source's own text.
public enum Localization {
    public static let domain = "tiltpuzzle"
    /// Where the compiled catalogs are when they are not installed (the tests').
    public static let directoryVariable = "TILTPUZZLE_LOCALEDIR"

    /// Takes the language from the environment and opens the catalogs. Only the
    /// messages follow the locale: numbers and times stay as the protocol and the files
    /// write them (a decimal comma would change `--trigger 12.5`), and the character type
    /// stays C, under which X11 opens no input method (SDL's window waited for one); the
    /// catalogs come out as UTF-8 by the bound codeset all the same.
    public static func start(environment: [String: String] = ProcessEnvironment.current,
                             executable: String? = ownPath()) {
        _ = setlocale(LC_MESSAGES, "")
        _ = bindtextdomain(domain, directory(environment: environment, executable: executable))
        // The catalogs are UTF-8 and so is every terminal and window the programs write to.
        _ = bind_textdomain_codeset(domain, "UTF-8")
        _ = textdomain(domain)
    }

    /// The catalogs' folder: `$TILTPUZZLE_LOCALEDIR`, else `share/locale` beside the
    /// program's `bin` (`/usr/bin/tiltpuzzle` reads `/usr/share/locale`, a `make install
    /// PREFIX=/usr/local` build `/usr/local/share/locale`), else the system's.
    public static func directory(environment: [String: String], executable: String?) -> String {
        if let explicit = environment[directoryVariable], !explicit.isEmpty { return explicit }
        guard let executable, let slash = executable.lastIndex(of: "/") else { return "/usr/share/locale" }
        let folder = executable[..<slash]
        guard let parent = folder.lastIndex(of: "/") else { return "/usr/share/locale" }
        return String(folder[..<parent]) + "/share/locale"
    }

    /// `message` in the player's language.
    public static func translate(_ message: String) -> String {
        message.withCString { String(cString: dgettext(domain, $0)) }
    }

    /// The form of `singular`/`plural` for `count` by the language's own rule (its
    /// catalog's Plural-Forms; English's without one).
    public static func translate(_ singular: String, _ plural: String, count: Int) -> String {
        singular.withCString { one in
            plural.withCString { many in
                String(cString: dngettext(domain, one, many, UInt(clamping: count.magnitude)))
            }
        }
    }

    /// `body` run with this thread alone in `locale` (`de_DE.UTF-8`), the catalogs read
    /// from `directory`: how a test reads what a view says in a language while the tests
    /// beside it, on other threads, still read English. nil when the system has no such
    /// locale (scripts/setup generates the ones the tests use).
    public static func speaking<T>(_ locale: String, catalogs directory: String, _ body: () throws -> T) rethrows -> T? {
        guard let language = newlocale(LC_MESSAGES_MASK | LC_CTYPE_MASK, locale, nil) else { return nil }
        defer { freelocale(language) }
        _ = bindtextdomain(domain, directory)
        _ = bind_textdomain_codeset(domain, "UTF-8")
        let previous = uselocale(language)
        defer { _ = uselocale(previous) }
        return try body()
    }

    /// This program's path, as the kernel knows it.
    public static func ownPath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// The marker of a message for translators: `L("unknown command '{0}'", name)` and
/// `L.plural("{0} move", "{0} moves", count)`. `scripts/update-pot` finds the messages
/// by these calls, so the first argument is always one string literal, whole: a
/// sentence with its placeholders, never pieces glued together (a translation may put
/// `{1}` before `{0}`, MessageFormat).
public struct Localizer: Sendable {
    public init() {}

    public func callAsFunction(_ message: String, _ arguments: Any...) -> String {
        MessageFormat.fill(Localization.translate(message), arguments.map { String(describing: $0) })
    }

    /// The form for `count`, which is `{0}`; `arguments` are `{1}` on.
    public func plural(_ singular: String, _ plural: String, _ count: Int, _ arguments: Any...) -> String {
        MessageFormat.fill(Localization.translate(singular, plural, count: count),
                           [String(count)] + arguments.map { String(describing: $0) })
    }

    /// A sentence another part wrote in English (a core's problem, a daemon's refusal),
    /// in the player's language: its template looked up, its arguments kept.
    public func translated(_ text: TranslatableText) -> String {
        MessageFormat.fill(Localization.translate(text.template), text.arguments)
    }
}

/// See `Localizer`.
public let L = Localizer()
