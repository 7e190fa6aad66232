// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltClient
import TiltGUI

/// The picture picker: every part a fingertip's size inside the window, none on another,
/// every entry on exactly one page, and what a tap or a key asks the window to do.
@Suite struct PicturePickerTests {
    static let windows: [(Size, Double?)] = [
        (Size(width: 360, height: 480), nil), (Size(width: 360, height: 640), nil), (Size(width: 640, height: 800), nil),
        (Size(width: 1280, height: 800), nil), (Size(width: 3840, height: 2160), nil),
        // A 15.6" 4K laptop: 282 dpi, so the minimum target is 100 px.
        (Size(width: 3840, height: 2160), 282),
    ]
    static let counts = [1, 7, 13, 125]

    static func picker(entries count: Int, settings: GUISettings = .defaults) -> PicturePicker {
        let builtIns = ["lighthouse", "meadow", "harbour"].prefix(max(0, min(3, count - 1)))
        let files = (0..<max(0, count - 1 - builtIns.count)).map { "/home/ann/Pictures/photo \($0).jpg" }
        let picker = PicturePicker(builtIns: Array(builtIns), files: files, settings: settings)
        #expect(picker.entries.count == count)
        return picker
    }

    static func layout(_ window: Size, dpi: Double?) -> Layout {
        Layout(window: window, side: 4, pointsPerMillimetre: Layout.pointsPerMillimetre(dpi: dpi))
    }

    static func overlap(_ a: Rect, _ b: Rect) -> Bool {
        a.x < b.maxX && b.x < a.maxX && a.y < b.maxY && b.y < a.maxY
    }

    static func inside(_ inner: Rect, _ outer: Rect) -> Bool {
        inner.x >= outer.x && inner.y >= outer.y && inner.maxX <= outer.maxX && inner.maxY <= outer.maxY
    }

    @Test(arguments: windows)
    func everyPartIsInsideFingerSizedAndApart(window: Size, dpi: Double?) {
        let layout = Self.layout(window, dpi: dpi)
        for count in Self.counts {
            var picker = Self.picker(entries: count)
            // Every page, the last (often short) one included.
            while true {
                let frames = picker.frames(in: layout)
                #expect(Self.inside(frames.panel, Rect(x: 0, y: 0, width: window.width, height: window.height)))
                let buttons = [frames.numberCorners, frames.sound, frames.close] + [frames.previous, frames.next].compactMap { $0 }
                let parts = [frames.title] + buttons + [frames.pageLabel].compactMap { $0 } + frames.thumbnails.map(\.frame)
                for (offset, part) in parts.enumerated() {
                    #expect(Self.inside(part, frames.panel), "\(window) \(count): \(part) outside \(frames.panel)")
                    for other in parts[(offset + 1)...] {
                        #expect(!Self.overlap(part, other), "\(window) \(count): \(part) on \(other)")
                    }
                }
                for target in buttons + frames.thumbnails.map(\.picture) {
                    #expect(target.width >= layout.minimumTarget && target.height >= layout.minimumTarget,
                            "\(window) \(count): \(target) under \(layout.minimumTarget)")
                }
                for thumbnail in frames.thumbnails {
                    #expect(frames.choice(at: thumbnail.frame.center) == .entry(thumbnail.index))
                    #expect(frames.choice(at: thumbnail.picture.center) == .entry(thumbnail.index))
                    #expect(Self.inside(thumbnail.picture, thumbnail.frame) && Self.inside(thumbnail.label, thumbnail.frame))
                    #expect(!Self.overlap(thumbnail.picture, thumbnail.label))
                    #expect(thumbnail.label.height >= layout.buttonTextSize)
                }
                #expect(frames.choice(at: frames.numberCorners.center) == .numberCorners)
                #expect(frames.choice(at: frames.sound.center) == .sound)
                #expect(frames.choice(at: frames.close.center) == .close)
                if let previous = frames.previous, let next = frames.next {
                    #expect(frames.choice(at: previous.center) == .previousPage)
                    #expect(frames.choice(at: next.center) == .nextPage)
                }
                guard picker.choose(.nextPage, in: layout) != nil else { break }
            }
        }
    }

    @Test(arguments: windows)
    func pagesShowEveryEntryExactlyOnce(window: Size, dpi: Double?) {
        let layout = Self.layout(window, dpi: dpi)
        for count in Self.counts {
            var picker = Self.picker(entries: count)
            var seen: [Int] = []
            var pages = 1
            let total = picker.page(in: layout).count
            while true {
                let frames = picker.frames(in: layout)
                #expect(!frames.thumbnails.isEmpty)
                seen += frames.thumbnails.map(\.index)
                #expect(picker.pageLabel(in: layout) == "\(pages) / \(total)")
                #expect((frames.previous != nil) == (total > 1) && frames.hasPrevious == (pages > 1))
                #expect(frames.hasNext == (pages < total))
                guard let action = picker.choose(.nextPage, in: layout) else { break }
                #expect(action == .page(pages))
                pages += 1
            }
            #expect(seen == Array(0..<count), "\(window) \(count)")
            #expect(pages == total)
            #expect(picker.choose(.nextPage, in: layout) == nil, "no page after the last")
            // And back to the first.
            while picker.choose(.previousPage, in: layout) != nil {}
            #expect(picker.page(in: layout).shown == 0 && picker.frames(in: layout).thumbnails.first?.index == 0)
        }
    }

    @Test func thumbnailsGrowWithTheWindowAndStayThreeOrMoreToARow() {
        func sideAndColumns(_ window: Size) -> (Double, Int) {
            let frames = Self.picker(entries: 125).frames(in: Self.layout(window, dpi: nil))
            let firstRow = frames.thumbnails.filter { $0.frame.y == frames.thumbnails[0].frame.y }
            return (frames.thumbnails[0].picture.width, firstRow.count)
        }
        let phone = sideAndColumns(Size(width: 360, height: 640)), tablet = sideAndColumns(Size(width: 1280, height: 800))
        #expect(phone.1 >= 3 && tablet.1 >= 3)
        #expect(tablet.0 > phone.0)
        // Over about 40 mm a thumbnail only costs entries per page.
        #expect(tablet.0 <= (40 * 96 / 25.4).rounded() + 1)
        // A few pictures fit on one page without page buttons.
        let few = Self.picker(entries: 7).frames(in: Self.layout(Size(width: 1280, height: 800), dpi: nil))
        #expect(few.previous == nil && few.next == nil && few.thumbnails.count == 7)
    }

    @Test func entriesAreNumbersThenBuiltInsThenTheFolderAndTheChoiceIsMarked() {
        let settings = GUISettings(picture: .builtIn("meadow"))
        let picker = PicturePicker(builtIns: ["lighthouse", "meadow"], files: ["/p/Sea at dawn.jpg"], settings: settings)
        #expect(picker.entries == [.numbers, .builtIn("lighthouse"), .builtIn("meadow"), .file("/p/Sea at dawn.jpg")])
        #expect(picker.entries.map(\.label) == ["Numbers", "lighthouse", "meadow", "Sea at dawn.jpg"])
        #expect(picker.selected == 2 && picker.focus == 2)
        let thumbnails = picker.frames(in: Self.layout(Size(width: 640, height: 800), dpi: nil)).thumbnails
        #expect(thumbnails.map(\.selected) == [false, false, true, false])
        #expect(thumbnails.map(\.focused) == [false, false, true, false])
        let gone = PicturePicker(builtIns: [], files: [], settings: GUISettings(picture: .file("/moved.png")))
        #expect(gone.selected == nil && gone.focus == 0)
    }

    @Test func theCurrentPicturesPageIsShownFirst() {
        let layout = Self.layout(Size(width: 360, height: 640), dpi: nil)
        let last = "/home/ann/Pictures/photo 120.jpg"
        let picker = Self.picker(entries: 125, settings: GUISettings(picture: .file(last)))
        let frames = picker.frames(in: layout)
        #expect(frames.thumbnails.contains { $0.selected && picker.entries[$0.index] == .file(last) })
        #expect(picker.page(in: layout).shown == picker.page(in: layout).count - 1)
    }

    @Test func aTapPicksTogglesOrCloses() {
        let layout = Self.layout(Size(width: 640, height: 800), dpi: nil)
        var picker = PicturePicker(builtIns: ["lighthouse"], files: ["/p/a.png"], settings: .defaults)
        #expect(picker.choose(.entry(2), in: layout) == .pick(.file("/p/a.png")))
        #expect(picker.settings.picture == .file("/p/a.png") && picker.selected == 2)
        #expect(picker.numberCornersLabel == "Numbers in corners: auto")
        #expect(picker.choose(.numberCorners, in: layout) == .numberCorners(.shown))
        #expect(picker.numberCornersLabel == "Numbers in corners: on")
        #expect(picker.choose(.numberCorners, in: layout) == .numberCorners(.hidden))
        #expect(picker.choose(.numberCorners, in: layout) == .numberCorners(.automatic))
        #expect(picker.soundLabel == "Sound: on (m)")
        #expect(picker.choose(.sound, in: layout) == .sound(false))
        #expect(picker.soundLabel == "Sound: off (m)" && picker.settings.sound == false)
        #expect(picker.choose(.close, in: layout) == .close)
        #expect(picker.choose(.entry(9), in: layout) == nil)
        #expect(picker.choose(.previousPage, in: layout) == nil, "a single page")
        #expect(picker.settings == GUISettings(picture: .file("/p/a.png"), numberCorners: .automatic, sound: false))
    }

    @Test func arrowsMoveTheFocusAcrossPagesEnterPicksEscapeCloses() {
        let layout = Self.layout(Size(width: 360, height: 640), dpi: nil)
        var picker = Self.picker(entries: 125)
        let frames = picker.frames(in: layout)
        let columns = frames.thumbnails.filter { $0.frame.y == frames.thumbnails[0].frame.y }.count
        let perPage = frames.thumbnails.count
        #expect(picker.handle(.arrow(.left), in: layout) == nil && picker.focus == 0)
        #expect(picker.handle(.arrow(.up), in: layout) == nil && picker.focus == 0)
        #expect(picker.handle(.arrow(.right), in: layout) == nil && picker.focus == 1)
        #expect(picker.handle(.arrow(.down), in: layout) == nil && picker.focus == 1 + columns)
        #expect(picker.handle(.arrow(.up), in: layout) == nil && picker.focus == 1)
        while picker.focus < perPage - 1 { _ = picker.handle(.arrow(.right), in: layout) }
        #expect(picker.handle(.arrow(.right), in: layout) == .page(1), "past the page's last thumbnail")
        #expect(picker.frames(in: layout).thumbnails.first { $0.focused }?.index == perPage)
        #expect(picker.handle(.arrow(.up), in: layout) == .page(0))
        #expect(picker.handle(.enter, in: layout) == .pick(picker.entries[perPage - columns].choice))
        #expect(picker.handle(.escape, in: layout) == .close)
        #expect(picker.handle(.character("x"), in: layout) == nil)
        while picker.focus < 124 { _ = picker.handle(.arrow(.right), in: layout) }
        #expect(picker.handle(.arrow(.right), in: layout) == nil && picker.focus == 124)
        #expect(picker.handle(.arrow(.down), in: layout) == nil && picker.focus == 124)
    }

    @Test func downFromAboveAShortLastRowLandsOnItsLastEntry() {
        let layout = Self.layout(Size(width: 360, height: 640), dpi: nil)
        var picker = Self.picker(entries: 7)
        let frames = picker.frames(in: layout)
        #expect(frames.thumbnails.filter { $0.frame.y == frames.thumbnails[0].frame.y }.count == 3, "rows of 3, 3 and 1")
        for _ in 0..<4 { _ = picker.handle(.arrow(.right), in: layout) }
        #expect(picker.handle(.arrow(.down), in: layout) == nil && picker.focus == 6)
        #expect(picker.handle(.arrow(.up), in: layout) == nil && picker.focus == 3)
    }
}
