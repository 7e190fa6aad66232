// SPDX-License-Identifier: GPL-3.0-or-later
/// A sentence written here in English that a client may show in the player's language:
/// what gettext calls a no-op marker. The daemon's replies and log use `english`; a
/// client passes the value to `L.translated` (TiltSystem), which looks `template` up in
/// the catalog and fills in the same arguments. `scripts/update-pot` finds the templates
/// by this initializer, so its first argument is one string literal with `{0}`, `{1}`…
/// where the values go (MessageFormat).
public struct TranslatableText: Equatable, Sendable, CustomStringConvertible {
    public let template: String
    public let arguments: [String]

    public init(_ template: String, _ arguments: Any...) {
        self.init(template: template, arguments: arguments.map { String(describing: $0) })
    }

    /// A template found again in another program's sentence (`MessageFormat.arguments`).
    public init(template: String, arguments: [String]) {
        self.template = template
        self.arguments = arguments
    }

    public var english: String { MessageFormat.fill(template, arguments) }
    public var description: String { english }

    /// This template's sentence `text` was made from, if it was.
    public func reading(_ text: String) -> TranslatableText? {
        MessageFormat.arguments(of: template, in: text).map { TranslatableText(template: template, arguments: $0) }
    }
}
