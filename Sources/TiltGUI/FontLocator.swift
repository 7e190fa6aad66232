// SPDX-License-Identifier: GPL-3.0-or-later
/// Finds a TrueType font for the tile numbers at run time: the package that ships
/// it puts it in different places on different distributions.
import TiltSystem
public enum FontLocator {
    /// DejaVu Sans Bold where distributions install it (Debian's fonts-dejavu-core first).
    public static let knownPaths = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    ]

    public struct NotFound: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// `explicit` if given (it must exist), else the first known path that exists,
    /// else what fontconfig suggests for a bold sans.
    public static func locate(explicit: String?, exists: (String) -> Bool,
                              fontconfig: () -> String?) throws(NotFound) -> String {
        if let explicit {
            guard exists(explicit) else { throw NotFound(description: L("the font {0} does not exist", explicit)) }
            return explicit
        }
        if let known = knownPaths.first(where: exists) { return known }
        if let suggested = fontconfig(), suggested.hasSuffix(".ttf") || suggested.hasSuffix(".otf"), exists(suggested) {
            return suggested
        }
        throw NotFound(description: L("no TrueType font found (tried {0} and fc-match).\nInstall one (Debian: apt install fonts-dejavu-core) or pass --font PATH.",
                                      knownPaths.joined(separator: ", ")))
    }
}
