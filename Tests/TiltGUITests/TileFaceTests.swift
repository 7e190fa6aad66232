// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
import TiltGUI

@Suite struct TileFaceTests {
    /// Every tile's piece is the cell it fills when solved: the pieces of all N×N cells
    /// tile the picture exactly, with no gap and no overlap.
    @Test(arguments: Board.sides)
    func thePiecesCoverThePictureOnce(side: Int) {
        let pictureSide = 997.0
        var covered = 0.0
        for tile in 0..<(side * side) {
            let piece = TileFace.piece(tile, side: side, pictureSide: pictureSide)
            let cell = pictureSide / Double(side)
            #expect(abs(piece.x - Double(tile % side) * cell) < 1e-9 && abs(piece.y - Double(tile / side) * cell) < 1e-9)
            covered += piece.width * piece.height
        }
        #expect(abs(covered - pictureSide * pictureSide) < 1e-6)
    }

    @Test func aPieceLeavesOutWhatTheTileGapLeavesOut() {
        let piece = TileFace.piece(4, side: 3, pictureSide: 300, inset: 0.05)
        #expect(piece == Rect(x: 105, y: 105, width: 90, height: 90))
    }

    @Test func numbersWithoutAPictureAndCornersBySize() {
        #expect(TileFace.of(tile: 6, side: 3, label: "7", picture: nil, corners: .shown) == .number("7"))
        guard case .piece(_, let corner) = TileFace.of(tile: 6, side: 3, label: "7", picture: 300, corners: .automatic) else {
            Issue.record("a picture's tile is a piece")
            return
        }
        #expect(corner == nil)
        #expect(TileFace.of(tile: 6, side: 4, label: "7", picture: 400, corners: .automatic)
                    == .piece(source: Rect(x: 200, y: 100, width: 100, height: 100), corner: "7"))
        #expect(TileFace.of(tile: 6, side: 5, label: "7", picture: 500, corners: .hidden)
                    == .piece(source: Rect(x: 100, y: 100, width: 100, height: 100), corner: nil))
        #expect(NumberCorners.allCases.map { $0.shows(side: 3) } == [false, true, false])
        #expect((2...10).filter { NumberCorners.automatic.shows(side: $0) } == Array(4...10))
    }

    @Test func aPictureIsNamedByWordOrByPath() {
        #expect(PictureChoice(naming: "numbers", workingDirectory: "/home/ann") == .numbers)
        #expect(PictureChoice(naming: "harbour", workingDirectory: "/home/ann") == .builtIn("harbour"))
        #expect(PictureChoice(naming: "sea.jpg", workingDirectory: "/home/ann") == .file("/home/ann/sea.jpg"))
        #expect(PictureChoice(naming: "./harbour", workingDirectory: "/home/ann/") == .file("/home/ann/./harbour"))
        #expect(PictureChoice(naming: "/media/card/sea.jpg", workingDirectory: "/") == .file("/media/card/sea.jpg"))
        #expect(PictureChoice.file("/media/card/sea.jpg").title == "sea.jpg")
        #expect(PictureChoice.builtIn("hills").title == "Hills at dawn")
        #expect(Set(BuiltInPictures.all.map(\.name)).count == BuiltInPictures.all.count)
    }
}
