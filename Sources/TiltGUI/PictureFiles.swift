// SPDX-License-Identifier: GPL-3.0-or-later
/// Which files of the pictures folder the picker offers, and in what order
/// (docs/gui.md, Pictures). The folder is read by the window (`PicturesFolderListing`);
/// the rule is here, apart from the file system, so it is tested on its own.
///
/// Bounds: only the folder's own entries are read (no sub-folders), at most
/// `entriesRead` (2000) of them, and at most `kept` (120) pictures are offered, so a
/// folder of a whole camera roll costs a bounded read and a picker of a few pages.
public enum PictureFiles {
    /// Entries read from the folder, at most; the rest are not looked at.
    public static let entriesRead = 2000
    /// Pictures offered, at most: the newest.
    public static let kept = 120
    /// What the window can show, by the name's ending, in any case.
    public static let extensions: Set<String> = ["png", "jpg", "jpeg", "webp", "svg"]

    /// One entry of the folder as read: its name, what it is (a symbolic link followed
    /// to what it names) and when it was last modified.
    public struct Entry: Equatable, Sendable {
        public enum Kind: Equatable, Sendable { case regular, directory, other }

        public var name: String
        public var kind: Kind
        /// Nanoseconds since the epoch.
        public var modified: Int64

        public init(name: String, kind: Kind, modified: Int64) {
            self.name = name
            self.kind = kind
            self.modified = modified
        }
    }

    /// A name the picker would offer: not hidden (a leading dot, as file managers hide
    /// them), ending in a picture's extension after something.
    public static func isPictureName(_ name: String) -> Bool {
        guard !name.hasPrefix("."), let dot = name.lastIndex(of: ".") else { return false }
        return extensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// The pictures among `entries`, newest first, then by name (so the order is the
    /// same on every read), at most `kept`; as absolute paths in `folder`.
    public static func pictures(in folder: String, entries: [Entry]) -> [String] {
        let pictures = entries.filter { $0.kind == .regular && isPictureName($0.name) }
            .sorted { $0.modified != $1.modified ? $0.modified > $1.modified : $0.name < $1.name }
        return pictures.prefix(kept).map { PicturesFolder.joined(folder, $0.name) }
    }

    /// What the picker labels a file with: its name.
    public static func name(ofPath path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
