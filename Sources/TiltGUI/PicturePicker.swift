// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltSystem

/// The panel where the player chooses what the tiles show (docs/gui.md, Pictures):
/// Numbers, the built-in pictures, then the pictures of their own folder, as
/// fingertip-sized thumbnails in pages, with the numbers-in-corners and sound toggles
/// and Close below. Touch first, keys too; it draws nothing and reads no files: the
/// window hands it the names and paths, and does what `choose` returns.
public struct PicturePicker: Equatable, Sendable {
    public enum Entry: Equatable, Sendable {
        case numbers
        case builtIn(String)
        /// A picture of the player's, by its absolute path.
        case file(String)

        public var choice: PictureChoice {
            switch self {
            case .numbers: .numbers
            case .builtIn(let name): .builtIn(name)
            case .file(let path): .file(path)
            }
        }

        /// The text under the thumbnail; a file's name, which the painter elides to fit.
        public var label: String {
            switch self {
            case .numbers: PictureChoice.numbers.title
            case .builtIn(let name): BuiltInPictures.named(name)?.title ?? name
            case .file(let path): PictureFiles.name(ofPath: path)
            }
        }
    }

    /// Numbers, then the built-in pictures, then the folder's, in the order given.
    public let entries: [Entry]
    /// The settings as the player has left them here; what the window keeps.
    public private(set) var settings: GUISettings
    /// The entry the keys move and Enter picks; its page is the one shown.
    public private(set) var focus: Int

    /// `builtIns` by name, `files` as absolute paths (`PicturesFolderListing.pictures`).
    /// The focus starts on the picture chosen now, so its page is shown first.
    public init(builtIns: [String], files: [String], settings: GUISettings) {
        entries = [.numbers] + builtIns.map(Entry.builtIn) + files.map(Entry.file)
        self.settings = settings
        focus = entries.firstIndex { $0.choice == settings.picture } ?? 0
    }

    /// The entry the tiles show now, marked in the panel; nil when it is not among the
    /// entries (a file since moved, or no longer among the newest).
    public var selected: Int? { entries.firstIndex { $0.choice == settings.picture } }

    public static var title: String { L("Picture") }
    public static var previousLabel: String { L("Previous") }
    public static var nextLabel: String { L("Next") }
    public static var closeLabel: String { L("Close") }
    public var numberCornersLabel: String {
        switch settings.numberCorners {
        case .automatic: L("Numbers in corners: auto")
        case .shown: L("Numbers in corners: on")
        case .hidden: L("Numbers in corners: off")
        }
    }
    public var soundLabel: String { SoundCues.toggleLabel(muted: !settings.sound) }

    /// What a tap or a key asks for.
    public enum Choice: Equatable, Sendable {
        /// An entry, by its index in `entries`.
        case entry(Int)
        case previousPage
        case nextPage
        case numberCorners
        case sound
        case close
    }

    /// What the window must do after a choice; nil is nothing but drawing again.
    public enum Action: Equatable, Sendable {
        /// The tiles show this from now on; keep the settings, and close the panel.
        case pick(PictureChoice)
        /// The numbers in the corners are now this; keep the settings.
        case numberCorners(NumberCorners)
        /// Sound is now on or off; keep the settings.
        case sound(Bool)
        case close
        /// Another page is shown, this one (from 0): its thumbnails are the ones to load.
        case page(Int)
    }

    public mutating func choose(_ choice: Choice, in layout: Layout) -> Action? {
        let grid = Grid(layout: layout, count: entries.count)
        let page = focus / grid.perPage
        switch choice {
        case .entry(let index):
            guard entries.indices.contains(index) else { return nil }
            focus = index
            settings.picture = entries[index].choice
            return .pick(settings.picture)
        case .previousPage:
            guard page > 0 else { return nil }
            focus = (page - 1) * grid.perPage
            return .page(page - 1)
        case .nextPage:
            guard page + 1 < grid.pages else { return nil }
            focus = (page + 1) * grid.perPage
            return .page(page + 1)
        case .numberCorners:
            let all = NumberCorners.allCases
            settings.numberCorners = all[(all.firstIndex(of: settings.numberCorners)! + 1) % all.count]
            return .numberCorners(settings.numberCorners)
        case .sound:
            settings.sound.toggle()
            return .sound(settings.sound)
        case .close:
            return .close
        }
    }

    /// Keys while the panel is up: the arrows move the focus through the thumbnails
    /// (past a page's edge onto the next page), Enter picks, Escape closes. `Key` has no
    /// Page Up or Down; the arrows and the page buttons turn pages.
    public mutating func handle(_ key: Key, in layout: Layout) -> Action? {
        let grid = Grid(layout: layout, count: entries.count)
        let before = focus / grid.perPage
        switch key {
        case .escape: return choose(.close, in: layout)
        case .enter: return choose(.entry(focus), in: layout)
        case .arrow(let direction):
            let last = entries.count - 1
            switch direction {
            case .left: focus = max(0, focus - 1)
            case .right: focus = min(last, focus + 1)
            case .up: if focus >= grid.columns { focus -= grid.columns }
            // Down from the row above a short last row lands on its last entry.
            case .down: if focus / grid.columns < last / grid.columns { focus = min(last, focus + grid.columns) }
            }
            let after = focus / grid.perPage
            return after == before ? nil : .page(after)
        default: return nil
        }
    }

    /// The page shown (from 0) and how many there are, at `layout`'s size.
    public func page(in layout: Layout) -> (shown: Int, count: Int) {
        let grid = Grid(layout: layout, count: entries.count)
        return (focus / grid.perPage, grid.pages)
    }

    /// "2 / 5", under the thumbnails when there is more than one page.
    public func pageLabel(in layout: Layout) -> String {
        let page = page(in: layout)
        return "\(page.shown + 1) / \(page.count)"
    }
}
