// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TestSupport
import TiltClient
import TiltCore
import TiltGUI
import TiltWire
#if canImport(Glibc)
import Glibc
#endif

/// The built window on a virtual X display showing a picture (docs/gui.md, Pictures): each
/// tile carries its own piece of it, the solved board shows it whole, the corner numbers
/// come and go with the setting, the peek shows it over a shuffled board, files that are no
/// picture leave the game as it was, and a 12-megapixel photo costs the window little memory.
@Suite(.serialized) struct PictureOnVirtualDisplayTests {
    static let windowSize = Size(width: 1024, height: 768)
    static var windowArgument: String { "\(Int(windowSize.width))x\(Int(windowSize.height))" }
    /// AddressSanitizer's quarantine keeps freed blocks resident: memory bounds do not hold under it.
    static var underAddressSanitizer: Bool { ProcessInfo.processInfo.environment["TILTPUZZLE_SANITIZER"] == "address" }
    /// Under either sanitizer a program's resident memory is mostly the sanitizer's (ASan's
    /// quarantine, TSan's shadow memory): a bound on the whole of it holds only without one.
    static var underSanitizer: Bool { ProcessInfo.processInfo.environment["TILTPUZZLE_SANITIZER"] != nil }

    @Test(.serialized, arguments: zip([3, 5], [11, 4] as [UInt64]))
    func everyTileShowsItsOwnPiece(side: Int, seed: UInt64) throws {
        let bench = try PictureBench()
        let state = try bench.state(after: .new(size: side, seed: seed, shuffle: true))
        let solved = Array(0..<(side * side))
        #expect(zip(state.board, solved).filter { $0 != $1 }.count >= 3, "the shuffle moves tiles away from their pieces' places")
        let gui = try bench.window(["--picture", bench.picture])
        let window = try bench.waitForWindow(gui)
        let expected = PictureBoard(layout: Layout(window: Self.windowSize, side: side))
        let mismatches = try bench.poll(window) { expected.pieceMismatches($0, board: state.board) }
        #expect(mismatches.isEmpty, "\(mismatches)")
        // The comparison tells pieces apart: the same screen against a board with two tiles swapped fails.
        let shot = try bench.display.screenshot(window: window, file: bench.directory.path + "/shot.xwd")
        var swapped = state.board
        let tiles = swapped.indices.filter { swapped[$0] != side * side - 1 }
        swapped.swapAt(tiles[0], tiles[1])
        #expect(expected.pieceMismatches(shot, board: swapped).count == 2, "swapped pieces are told apart")
        try bench.quit(gui, window)
    }

    @Test func theSolvedBoardShowsTheWholePictureBeforeThePanel() throws {
        let bench = try PictureBench()
        // A game that began one tilt from solved (one that began solved is not celebrated).
        let nearlySolved = try Board(cells: [0, 1, 2, 3, 4, 5, 6, 8, 7])
        let state = try bench.state(after: .new(size: nil, seed: nil, shuffle: false, board: nearlySolved))
        let gui = try bench.window(["--picture", bench.picture])
        let window = try bench.waitForWindow(gui)
        let layout = Layout(window: Self.windowSize, side: 3)
        let expected = PictureBoard(layout: layout)
        let pieces = try bench.poll(window) { expected.pieceMismatches($0, board: state.board) }
        #expect(pieces.isEmpty, "\(pieces)")
        try bench.display.key("Left", window: window)
        // The whole picture, seams and the last cell included, shows for a while (GUIApp.solvedPictureShows)...
        let whole = try bench.poll(window) { expected.wholePictureMismatches($0) }
        #expect(whole.isEmpty, "\(whole)")
        // ...and then the solved panel grows in over its middle.
        let panel = try bench.poll(window) { shot in
            shot.count(of: Palette.bannerBackground, in: layout.cell(4).insetBy(layout.cellSize * 0.3), tolerance: 6) > 0
                ? [] : ["no solved panel over the middle cell"]
        }
        #expect(panel.isEmpty, "\(panel)")
        try bench.quit(gui, window)
    }

    @Test func cornerNumbersShowWhenOnAndNotWhenOff() throws {
        // On, even on a 3×3, where auto would leave them out.
        do {
            let bench = try PictureBench()
            try GUIProcess.writeSettings("number-corners = on\n", in: bench.directory)
            let state = try bench.state(after: .new(size: 3, seed: 11, shuffle: true))
            let gui = try bench.window(["--picture", bench.picture])
            let window = try bench.waitForWindow(gui)
            let expected = PictureBoard(layout: Layout(window: Self.windowSize, side: 3))
            let mismatches = try bench.poll(window) { expected.cornerMismatches($0, board: state.board, numbers: true) }
            #expect(mismatches.isEmpty, "\(mismatches)")
            try bench.quit(gui, window)
        }
        // Off, even on a 5×5, where auto would show them.
        do {
            let bench = try PictureBench()
            try GUIProcess.writeSettings("number-corners = off\n", in: bench.directory)
            let state = try bench.state(after: .new(size: 5, seed: 4, shuffle: true))
            let gui = try bench.window(["--picture", bench.picture])
            let window = try bench.waitForWindow(gui)
            let expected = PictureBoard(layout: Layout(window: Self.windowSize, side: 5))
            let mismatches = try bench.poll(window) { expected.cornerMismatches($0, board: state.board, numbers: false) }
            #expect(mismatches.isEmpty, "\(mismatches)")
            // The same screen has no numbers where the other setting wants them.
            let shot = try bench.display.screenshot(window: window, file: bench.directory.path + "/shot.xwd")
            #expect(!expected.cornerMismatches(shot, board: state.board, numbers: true).isEmpty)
            try bench.quit(gui, window)
        }
    }

    /// The picture chosen is kept: the next window shows it without being told; once the
    /// file has gone, the next one shows numbers and says so in one line.
    @Test func theChosenPictureIsThereTheNextTimeAndNumbersWhenItHasGone() throws {
        let bench = try PictureBench()
        let state = try bench.state(after: .new(size: 3, seed: 11, shuffle: true))
        let expected = PictureBoard(layout: Layout(window: Self.windowSize, side: 3))
        let first = try bench.window(["--picture", bench.picture])
        let firstWindow = try bench.waitForWindow(first)
        #expect(try bench.poll(firstWindow) { expected.pieceMismatches($0, board: state.board) }.isEmpty)
        try bench.quit(first, firstWindow)

        let next = try bench.window([])
        let nextWindow = try bench.waitForWindow(next)
        let kept = try bench.poll(nextWindow) { expected.pieceMismatches($0, board: state.board) }
        #expect(kept.isEmpty, "the kept picture: \(kept)")
        try bench.quit(next, nextWindow)

        #expect(unlink(bench.picture) == 0)
        let gone = try bench.window([])
        let goneWindow = try bench.waitForWindow(gone)
        let line = gone.waitForLine(containing: "showing numbers", timeout: 20)
        #expect(line?.contains("blocks.png") == true, "one line says the picture has gone: \(gone.output)")
        let numbers = try bench.poll(goneWindow) { BoardPicture(layout: expected.layout).mismatches($0, state) }
        #expect(numbers.isEmpty, "\(numbers)")
        try bench.quit(gone, goneWindow)
        #expect(gone.output.components(separatedBy: "blocks.png").count == 2, "said once: \(gone.output)")
    }

    @Test func peekShowsTheWholePictureAndThenThePiecesAgain() throws {
        let bench = try PictureBench()
        let state = try bench.state(after: .new(size: 3, seed: 11, shuffle: true))
        let gui = try bench.window(["--picture", bench.picture])
        let window = try bench.waitForWindow(gui)
        let expected = PictureBoard(layout: Layout(window: Self.windowSize, side: 3))
        let pieces = try bench.poll(window) { expected.pieceMismatches($0, board: state.board) }
        #expect(pieces.isEmpty, "\(pieces)")
        try bench.display.key("v", window: window)
        let whole = try bench.poll(window) { expected.wholePictureMismatches($0) }
        #expect(whole.isEmpty, "peek: \(whole)")
        try bench.display.key("v", window: window)
        let again = try bench.poll(window) { expected.pieceMismatches($0, board: state.board) }
        #expect(again.isEmpty, "after the peek: \(again)")
        #expect(try bench.state(after: .state).board == state.board, "a peek moves nothing")
        try bench.quit(gui, window)
    }

    /// A camera's JPEG is shown as its Exif orientation says (TIFF 6.0, tag 0x0112): a
    /// 600×400 picture of four coloured quarters, stored turned, must show upright at the peek.
    @Test(.serialized, arguments: [1, 3, 6, 8])
    func aJPEGIsShownTheWayItsExifSays(orientation: Int) throws {
        let quadrants = [[Color(220, 40, 40), Color(40, 200, 60)], [Color(40, 60, 220), Color(230, 220, 40)]]
        // Which stored quarter (row, column) shows at the shown quarter (r, c).
        let stored: (Int, Int) -> (Int, Int) = switch orientation {
        case 3: { r, c in (1 - r, 1 - c) }        // turned half way
        case 6: { r, c in (1 - c, r) }            // to be turned a quarter clockwise
        case 8: { r, c in (c, 1 - r) }            // to be turned a quarter anticlockwise
        default: { r, c in (r, c) }
        }
        let bench = try PictureBench()
        let photo = bench.directory.path + "/photo.jpg"
        try TestPicture.writeJPEG(width: 600, height: 400, quadrants: quadrants, orientation: orientation, to: photo)
        // 4×4: no piece's middle is on the line between two quarters.
        let state = try bench.state(after: .new(size: 4, seed: 7, shuffle: true))
        let gui = try bench.window(["--picture", photo])
        let window = try bench.waitForWindow(gui)
        let expected = PictureBoard(layout: Layout(window: Self.windowSize, side: 4)) { x, y in
            let (row, column) = stored(y < 0.5 ? 0 : 1, x < 0.5 ? 0 : 1)
            return quadrants[row][column]
        }
        // The pieces first (a peek asked for before the picture is there does nothing), then the whole picture.
        let pieces = try bench.poll(window) { expected.pieceMismatches($0, board: state.board, tolerance: 30, unique: false) }
        #expect(pieces.isEmpty, "orientation \(orientation): \(pieces)")
        try bench.display.key("v", window: window)
        let board = expected.layout.board
        let whole = try bench.poll(window) { shot in
            [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)].compactMap { fx, fy in
                let point = Point(x: board.x + fx * board.width, y: board.y + fy * board.height)
                let seen = expected.sample(shot, point), wanted = expected.picture(fx, fy)
                return seen.isClose(to: wanted, tolerance: 30) ? nil : "at \(fx), \(fy) of the board: \(seen), not \(wanted)"
            }
        }
        #expect(whole.isEmpty, "orientation \(orientation): \(whole)")
        try bench.quit(gui, window)
    }

    /// A file that cannot be shown, how to make it, and the words the refusal must use.
    struct BadPicture: CustomTestStringConvertible, Sendable {
        let name: String
        let reason: String
        let make: @Sendable (String, String) throws -> Void
        var testDescription: String { name }
    }

    static let badPictures: [BadPicture] = [
        BadPicture(name: "text.png", reason: "not a PNG, JPEG, WebP or SVG picture") { path, _ in
            try "This is a text file with a picture's name.\n".write(toFile: path, atomically: true, encoding: .utf8)
        },
        BadPicture(name: "cut.png", reason: "cannot be decoded") { path, picture in
            let whole = try Data(contentsOf: URL(fileURLWithPath: picture))
            try whole.prefix(whole.count / 3).write(to: URL(fileURLWithPath: path))
        },
        BadPicture(name: "empty.png", reason: "the file is empty") { path, _ in
            try Data().write(to: URL(fileURLWithPath: path))
        },
        BadPicture(name: "folder.png", reason: "it is a folder") { path, _ in
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        },
        // Root reads any file: the window runs without the capabilities that let it (see `launcher`).
        BadPicture(name: "unreadable.png", reason: "permission denied") { path, picture in
            try FileManager.default.copyItem(atPath: picture, toPath: path)
            chmod(path, 0)
        },
        BadPicture(name: "bomb.png", reason: "more than the 48 megapixels") { path, _ in
            try TestPicture.writeClaiming(width: 20000, height: 20000, to: path)
        },
        BadPicture(name: "huge.png", reason: "larger than 64 MiB") { path, picture in
            // A real picture's bytes, then a hole: 80 MiB on paper, little on disk.
            try FileManager.default.copyItem(atPath: picture, toPath: path)
            guard truncate(path, 80 << 20) == 0 else { throw TestFailure("truncate \(path): \(String(cString: strerror(errno)))") }
        },
    ]

    @Test(.serialized, arguments: badPictures)
    func aFileThatIsNoPictureLeavesTheGameAsItWas(bad: BadPicture) throws {
        let bench = try PictureBench()
        let path = bench.directory.path + "/" + bad.name
        try bad.make(path, bench.picture)
        var state = try bench.state(after: .new(size: 3, seed: 11, shuffle: true))
        // As root the window would read a file of mode 0: without these capabilities root is bound by the mode too.
        let launcher = getuid() == 0 && bad.name == "unreadable.png"
            ? ["/usr/bin/setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--"] : []
        let gui = try bench.window(["--picture", path], launcher: launcher)
        let window = try bench.waitForWindow(gui)
        let line = gui.waitForLine(containing: "cannot show \(bad.name):", timeout: 20)
        #expect(line?.contains(bad.reason) == true, "standard error says why: \(gui.output)")
        // The numbers, where the daemon has the tiles.
        let layout = Layout(window: Self.windowSize, side: 3)
        let numbers = try bench.poll(window) { BoardPicture(layout: layout).mismatches($0, state) }
        #expect(numbers.isEmpty, "\(numbers)")
        let resident = try gui.residentBytes()
        print("GUI resident memory after refusing \(bad.name): \(resident >> 20) MiB")
        if !Self.underSanitizer { #expect(resident < 200 << 20, "\(resident >> 20) MiB resident") }
        // The window still plays.
        try bench.display.key(GUIOnVirtualDisplayTests.keyName(GUIOnVirtualDisplayTests.legalTilt(state)), window: window)
        let moved = try GUIOnVirtualDisplayTests.waitForChange(from: state, on: bench.control)
        #expect(moved.moves == state.moves + 1, "an arrow key still tilts the board")
        state = moved
        let after = try bench.poll(window) { BoardPicture(layout: layout).mismatches($0, state) }
        #expect(after.isEmpty, "\(after)")
        try bench.quit(gui, window)
    }

    @Test func aTwelveMegapixelPictureCostsLittleMemory() throws {
        let bench = try PictureBench()
        let photo = bench.directory.path + "/photo.png"
        try TestPicture.writeGradient(width: 4000, height: 3000, to: photo)
        let state = try bench.state(after: .new(size: 4, seed: 7, shuffle: true))
        let layout = Layout(window: Self.windowSize, side: 4)

        var gui = try bench.window([])
        var window = try bench.waitForWindow(gui)
        let numbers = try bench.poll(window) { BoardPicture(layout: layout).mismatches($0, state) }
        #expect(numbers.isEmpty, "\(numbers)")
        let withNumbers = try gui.residentBytes()
        try bench.quit(gui, window)

        gui = try bench.window(["--picture", photo])
        window = try bench.waitForWindow(gui)
        // The largest centred square of the 4000×3000 gradient: red from 500/4000 to 3500/4000 of full.
        let expected = PictureBoard(layout: layout) { x, y in
            Color(UInt8((500 + x * 3000) * 255 / 4000), UInt8(y * 255), 128)
        }
        let pieces = try bench.poll(window) { expected.pieceMismatches($0, board: state.board, tolerance: 6, unique: false) }
        #expect(pieces.isEmpty, "\(pieces)")
        let withPicture = try gui.residentBytes()
        print("GUI resident memory, 1024×768 window: \(withNumbers >> 10) KiB with numbers, \(withPicture >> 10) KiB with a "
              + "4000×3000 picture (\((withPicture - withNumbers) >> 10) KiB more)")
        if !Self.underAddressSanitizer {
            #expect(withPicture - withNumbers < 64 << 20, "the picture costs \((withPicture - withNumbers) >> 20) MiB")
        }
        try bench.quit(gui, window)
    }
}

/// A daemon on a temporary socket, a virtual display, and the blocks picture in a temporary folder.
final class PictureBench {
    let directory = TemporaryDirectory()
    let daemon: DaemonProcess
    let display: VirtualDisplay
    let control: DaemonConnection
    /// The blocks of `TestPicture`, a 600×600 PNG.
    let picture: String

    init() throws {
        daemon = try DaemonProcess(directory: directory)
        display = try VirtualDisplay(directory: directory)
        control = try DaemonConnection(candidates: [daemon.socketPath])
        picture = directory.path + "/blocks.png"
        try TestPicture.writeBlocks(side: 600, to: picture)
    }

    deinit { daemon.terminate() }

    func state(after command: Command) throws -> GameState {
        try GUIOnVirtualDisplayTests.state(after: command, on: control)
    }

    /// The window against the daemon, at the test's size.
    func window(_ arguments: [String], launcher: [String] = []) throws -> GUIProcess {
        try GUIProcess(display: display, directory: directory,
                       arguments: ["--socket", daemon.socketPath, "--window", PictureOnVirtualDisplayTests.windowArgument] + arguments,
                       launcher: launcher)
    }

    /// Screenshots until `mismatches` finds none (only a hang takes the 20 s); the last ones
    /// found. `TILTPUZZLE_GUI_SCREENSHOT=FILE` keeps the last screenshot when some remain.
    func poll(_ window: String, timeout: Double = 20, _ mismatches: (Screenshot) -> [String]) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        let file = directory.path + "/shot.xwd"
        var found: [String]
        repeat {
            found = mismatches(try display.screenshot(window: window, file: file))
            if found.isEmpty { return found }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        if let kept = ProcessInfo.processInfo.environment["TILTPUZZLE_GUI_SCREENSHOT"] {
            try? FileManager.default.removeItem(atPath: kept)
            try? FileManager.default.copyItem(atPath: file, toPath: kept)
        }
        return found
    }

    /// The window's id once it shows; a failure that says what the window printed if it does not.
    func waitForWindow(_ gui: GUIProcess) throws -> String {
        do {
            return try display.waitForWindow(named: "tiltpuzzle")
        } catch {
            throw TestFailure("\(error); the window said: \(gui.output)")
        }
    }

    /// `q`, and the window must close by itself.
    func quit(_ gui: GUIProcess, _ window: String) throws {
        try display.key("q", window: window)
        #expect(gui.waitForExit() == 0, "the window closes on q: \(gui.output)")
    }
}

/// Where a screenshot must show which part of a picture, for a board in `layout`.
struct PictureBoard {
    let layout: Layout
    /// The picture's colour at (x, y), fractions of its shown square from its top left.
    var picture: (Double, Double) -> Color = TestPicture.color

    init(layout: Layout, picture: @escaping (Double, Double) -> Color = TestPicture.color) {
        self.layout = layout
        self.picture = picture
    }

    var side: Int { layout.side }
    var empty: Int { side * side - 1 }

    /// The picture's colour at `point` of the cell at `index` when tile `tile` sits there:
    /// the piece is the part of the picture under the tile's cell on the solved board.
    func color(at point: Point, cell index: Int, tile: Int) -> Color {
        let cell = layout.cell(index)
        return picture((Double(tile % side) + (point.x - cell.x) / cell.width) / Double(side),
                       (Double(tile / side) + (point.y - cell.y) / cell.height) / Double(side))
    }

    /// The colour at the middle of piece `tile`.
    func pieceColor(_ tile: Int) -> Color { color(at: layout.cell(tile).center, cell: tile, tile: tile) }

    /// The average colour of the pixels within `radius` of `point`.
    func sample(_ shot: Screenshot, _ point: Point, radius: Int = 4) -> Color {
        var sums = (0, 0, 0), count = 0
        for y in (Int(point.y) - radius)...(Int(point.y) + radius) {
            for x in (Int(point.x) - radius)...(Int(point.x) + radius) {
                let pixel = shot.pixel(x: x, y: y)
                sums = (sums.0 + Int(pixel.red), sums.1 + Int(pixel.green), sums.2 + Int(pixel.blue))
                count += 1
            }
        }
        return Color(UInt8(sums.0 / count), UInt8(sums.1 / count), UInt8(sums.2 / count))
    }

    static func distance(_ a: Color, _ b: Color) -> Int {
        abs(Int(a.red) - Int(b.red)) + abs(Int(a.green) - Int(b.green)) + abs(Int(a.blue) - Int(b.blue))
    }

    /// What differs from `board` shown as pieces: each tile's middle must be its own
    /// piece's colour and (`unique`) nearer to it than to any other piece's; the gap and
    /// the seams between tiles the board's colour.
    func pieceMismatches(_ shot: Screenshot, board: [Int], tolerance: Int = 8, unique: Bool = true) -> [String] {
        var found: [String] = []
        for index in 0..<(side * side) {
            let tile = board[index]
            let seen = sample(shot, layout.cell(index).center)
            if tile == empty {
                if !seen.isClose(to: Palette.board, tolerance: tolerance) { found.append("gap \(index): \(seen), not the board's colour") }
                continue
            }
            let wanted = pieceColor(tile)
            if !seen.isClose(to: wanted, tolerance: tolerance) {
                found.append("cell \(index): \(seen), not piece \(tile)'s \(wanted)")
            } else if unique, let nearest = (0..<empty).min(by: { Self.distance(seen, pieceColor($0)) < Self.distance(seen, pieceColor($1)) }),
                      nearest != tile {
                found.append("cell \(index): \(seen) is nearer piece \(nearest)'s colour than piece \(tile)'s")
            }
        }
        for seam in seams() where !shot.pixel(at: seam.point).isClose(to: Palette.board, tolerance: tolerance) {
            found.append("seam at \(seam.point): \(shot.pixel(at: seam.point)), not the board's colour")
        }
        return found
    }

    /// What differs from the whole picture over the board: every cell's middle, the
    /// last one's too, and the seams between cells show the picture, not the board.
    func wholePictureMismatches(_ shot: Screenshot, tolerance: Int = 8) -> [String] {
        var found: [String] = []
        for index in 0..<(side * side) {
            let seen = sample(shot, layout.cell(index).center)
            if !seen.isClose(to: pieceColor(index), tolerance: tolerance) {
                found.append("cell \(index): \(seen), not the picture's \(pieceColor(index))")
            }
        }
        for seam in seams() {
            // Between two cells the picture may blend the colours on either side, no more.
            let seen = shot.pixel(at: seam.point), a = seam.before, b = seam.after
            let within = { (value: UInt8, x: UInt8, y: UInt8) in
                Int(value) >= Int(min(x, y)) - tolerance && Int(value) <= Int(max(x, y)) + tolerance
            }
            if seen.isClose(to: Palette.board, tolerance: tolerance)
                || !(within(seen.red, a.red, b.red) && within(seen.green, a.green, b.green) && within(seen.blue, a.blue, b.blue)) {
                found.append("seam at \(seam.point): \(seen), not the picture's \(a) or \(b) there")
            }
        }
        return found
    }

    /// Points on the lines between neighbouring cells, mid-way along them, and the
    /// picture's colours just either side of each on the solved board.
    func seams() -> [(point: Point, before: Color, after: Color)] {
        var seams: [(Point, Color, Color)] = []
        let reach = layout.tileGap
        for index in 0..<(side * side) {
            let cell = layout.cell(index)
            if index % side < side - 1 {
                let point = Point(x: cell.maxX.rounded(.down), y: cell.center.y)
                seams.append((point, color(at: Point(x: point.x - reach, y: point.y), cell: index, tile: index),
                              color(at: Point(x: point.x + reach, y: point.y), cell: index, tile: index)))
            }
            if index / side < side - 1 {
                let point = Point(x: cell.center.x, y: cell.maxY.rounded(.down))
                seams.append((point, color(at: Point(x: point.x, y: point.y - reach), cell: index, tile: index),
                              color(at: Point(x: point.x, y: point.y + reach), cell: index, tile: index)))
            }
        }
        return seams
    }

    /// What differs in the tiles' top left corners: with `numbers`, a dark patch over the
    /// piece with the number's light text on it; without, the piece itself, untouched.
    func cornerMismatches(_ shot: Screenshot, board: [Int], numbers: Bool) -> [String] {
        var found: [String] = []
        for index in 0..<(side * side) where board[index] != empty {
            let tile = layout.tile(row: Double(index / side), column: Double(index % side))
            let corner = Rect(x: tile.x.rounded(.up) + 1, y: tile.y.rounded(.up) + 1, width: tile.width * 0.25, height: tile.height * 0.25)
            let probe = Point(x: corner.x + 1, y: corner.y + 1)
            let piece = color(at: probe, cell: index, tile: board[index])
            if numbers {
                let patch = Self.blend(Palette.cornerPatch, over: piece)
                if !shot.pixel(at: probe).isClose(to: patch, tolerance: 12) {
                    found.append("cell \(index): \(shot.pixel(at: probe)) at \(probe), not the corner patch's \(patch)")
                }
                let ink = shot.count(of: Palette.bannerText, in: corner, tolerance: 60)
                if ink < 5 { found.append("cell \(index): \(ink) pixels of number in the corner") }
            } else {
                var stray = 0
                for y in Int(corner.y)..<Int(corner.maxY) {
                    for x in Int(corner.x)..<Int(corner.maxX) {
                        let point = Point(x: Double(x), y: Double(y))
                        if !shot.pixel(at: point).isClose(to: color(at: point, cell: index, tile: board[index]), tolerance: 20) { stray += 1 }
                    }
                }
                if stray > 0 { found.append("cell \(index): \(stray) pixels of the corner are not the piece's") }
            }
        }
        return found
    }

    /// `top` laid over `bottom` with its alpha, as the renderer blends.
    static func blend(_ top: Color, over bottom: Color) -> Color {
        let a = Int(top.alpha)
        let mix = { (t: UInt8, b: UInt8) in UInt8((Int(t) * a + Int(b) * (255 - a)) / 255) }
        return Color(mix(top.red, bottom.red), mix(top.green, bottom.green), mix(top.blue, bottom.blue))
    }
}
