// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore

/// Boards as players write them (docs/client.md, "Boards").
@Suite struct BoardNotationTests {
    @Test(arguments: ["1 2 3 4 5 6 7 8 0", "1,2,3,4,5,6,7,8,0", "1 2 3, 4 5 6, 7 8 _", " 1,2 ,3,,4 5 6 7 8 _ "])
    func theSolvedThreeByThreeIsWrittenAsPlayersWriteIt(text: String) throws {
        let board = try BoardNotation.board(text)
        #expect(board == Board(side: 3))
    }

    @Test func printedBoardsReadBackAsTheSameBoard() throws {
        for side in Board.sides {
            var board = Board(side: side)
            for step in 0 ..< 40 { board.tilt(Direction.allCases[(step * 7 + side) % 4]) }
            let text = BoardNotation.text(board)
            #expect(try BoardNotation.board(text) == board, "\(text)")
        }
        #expect(BoardNotation.text(Board(side: 3)) == "1 2 3, 4 5 6, 7 8 _")
    }

    @Test(arguments: [
        ("1 2 3 4 5 6 7 8", BoardNotation.Problem.wrongCount(8)),
        ("1 2 3 4 5 6 7 8 9", .noSuchTile(9, side: 3)),
        ("1 2 3 x", .notALabel("x")),
        ("1 2 -3 0", .notALabel("-3")),
        ("1 1 3 0", .repeatedTile(1)),
        ("1 0 _ 3", .repeatedEmpty),
        ("2 1 3 4 5 6 7 8 0", .unsolvable),
    ])
    func eachWayABoardCanBeWrongHasItsReason(text: String, problem: BoardNotation.Problem) {
        #expect(throws: problem) { try BoardNotation.board(text) }
    }

    /// Found by the board-notation fuzzer: a line end inside a "word" made a reason of
    /// two lines. Lines are separators, as spaces are.
    @Test func aBoardOverSeveralLinesReadsAndAReasonIsOneLine() throws {
        #expect(try BoardNotation.board("1 2 3\n4 5 6\r\n7 8 _\n") == Board(side: 3))
        #expect(throws: BoardNotation.Problem.notALabel("x")) { try BoardNotation.board("1\nx") }
    }

    @Test func theReasonsNameWhatIsAllowed() {
        #expect(BoardNotation.Problem.noSuchTile(9, side: 3).description
            == "there is no tile 9 on a 3×3 board: its tiles are 1 to 8, and 0 or _ the empty cell")
        #expect(BoardNotation.Problem.wrongCount(8).description.hasPrefix("a board has 4, 9, 16, 25,"))
        #expect(BoardNotation.Problem.notALabel("x").description.contains("0 or _ for the empty cell"))
    }

    @Test func labelsAreTheProtocolsValuesPlusOne() {
        #expect(BoardNotation.label(ofValue: 0, side: 4) == 1)
        #expect(BoardNotation.label(ofValue: 15, side: 4) == nil)
        #expect(BoardNotation.cell(ofTile: 8, cells: [0, 1, 2, 3, 4, 5, 6, 8, 7], side: 3) == 8)
        #expect(BoardNotation.cell(ofTile: 9, cells: [0, 1, 2, 3, 4, 5, 6, 8, 7], side: 3) == nil)
        #expect(BoardNotation.cell(ofTile: 0, cells: [0, 1, 2, 3, 4, 5, 6, 8, 7], side: 3) == nil)
    }
}

/// One way to say counts and play time, in every view.
@Suite struct CountAndTimeTextTests {
    @Test func countsAgreeInNumber() {
        #expect(CountText.text(0, "move") == "0 moves")
        #expect(CountText.text(1, "move") == "1 move")
        #expect(CountText.text(2, "tilt") == "2 tilts")
    }

    @Test func playTimeIsAClock() {
        #expect(PlayTime.text(0.6) == "0:00")
        #expect(PlayTime.text(2.9) == "0:02")
        #expect(PlayTime.text(62) == "1:02")
        #expect(PlayTime.text(3725) == "1:02:05")
        #expect(PlayTime.text(-.infinity) == "0:00")
    }
}
