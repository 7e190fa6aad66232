// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import Testing
import TiltClient
import TiltCore
import TiltTerminal
import TiltWire

struct BoardViewTests {
    static func state(side: Int, seed: UInt64 = 3) -> GameState {
        GameState(puzzle: Puzzle.newGame(side: side, seed: seed), revision: 1, time: 0)
    }

    static func render(_ state: GameState?, mark: ClientGame.TiltMark? = nil, lines: [String] = ["12 moves   0:42", "tilt left"],
                       width: Int, height: Int) -> [ScreenRow] {
        BoardView.render(BoardView.Content(title: "title", state: state, mark: mark, lines: lines), width: width, height: height)
    }

    /// Every window gets exactly its rows, none wider than it; where the board is
    /// drawn bordered it reads back as the game's board.
    @Test(arguments: [2, 3, 4, 7, 10])
    func fillsAnyWindowAndShowsTheBoard(side: Int) {
        let state = Self.state(side: side)
        for (width, height) in [(100, 40), (80, 24), (200, 60), (40, 20), (30, 14), (20, 8), (1, 1)] {
            let rows = Self.render(state, width: width, height: height)
            #expect(rows.count == height, "\(width)×\(height)")
            #expect(rows.allSatisfy { $0.text.count <= width }, "\(width)×\(height)")
            let drawn = ScreenBoard.rows(rows.map(\.text))
            if !drawn.isEmpty {
                #expect(drawn == ScreenBoard.expected(size: side, board: state.board), "\(width)×\(height)")
            }
        }
    }

    @Test func largerWindowsGetLargerTiles() {
        let state = Self.state(side: 4)
        func boardWidth(_ width: Int, _ height: Int) -> Int {
            Self.render(state, width: width, height: height).map { $0.text.filter { $0 == "-" }.count }.max() ?? 0
        }
        #expect(boardWidth(40, 20) < boardWidth(100, 40))
        #expect(boardWidth(100, 40) < boardWidth(200, 80))
    }

    @Test func theBoardIsCentred() {
        let rows = Self.render(Self.state(side: 4), width: 100, height: 40).map(\.text)
        let rule = try! #require(rows.first { $0.contains("+-") })
        let left = rule.prefix { $0 == " " }.count
        let right = 100 - left - rule.trimmingCharacters(in: .whitespaces).count
        #expect(abs(left - right) <= 1)
        let top = rows.prefix { $0.isEmpty }.count
        let bottom = rows.reversed().prefix { $0.isEmpty }.count
        #expect(abs(top - bottom) <= 1)
    }

    @Test func tooSmallAWindowSaysSoAndWhatItNeeds() {
        let rows = Self.render(Self.state(side: 4), width: 18, height: 6).map(\.text)
        #expect(rows.contains { $0.contains("window too small") })
        #expect(rows.contains { $0.contains("4×4 needs") })
    }

    /// Between the bordered sizes and "too small": a bare grid of numbers.
    @Test func aSmallWindowGetsTheCompactGrid() {
        let state = GameState(revision: 0, size: 3, board: [0, 1, 2, 3, 4, 5, 6, 8, 7], empty: 7,
                              moves: 0, solved: false, canUndo: false, canRedo: false, time: 0)
        let rows = Self.render(state, lines: [], width: 16, height: 9).map(\.text)
        #expect(rows.contains { $0.contains(" 1 2 3") })
        #expect(rows.contains { $0.contains(" 7   8") })
        #expect(!rows.contains { $0.contains("|") })
    }

    @Test func beforeTheFirstStateItSaysItIsWaiting() {
        let rows = Self.render(nil, lines: [], width: 80, height: 24).map(\.text)
        #expect(rows.contains { $0.contains("waiting for the game") })
    }

    /// A daemon's board with fewer cells than its size says is not drawn (nor trusted to index).
    @Test func aBoardThatDoesNotFitItsSizeIsNotDrawn() {
        let garbled = GameState(revision: 0, size: 4, board: [0, 1, 2], empty: 2, moves: 0, solved: false,
                                canUndo: false, canRedo: false, time: 0)
        let rows = Self.render(garbled, width: 80, height: 24).map(\.text)
        #expect(rows.contains { $0.contains("waiting for the game") })
        #expect(GameText.boardLine(garbled) == "1 2 3")
    }

    /// The board's rows, the arrow rows around them, by the row index in `rows`.
    static func boardRows(_ rows: [ScreenRow]) -> [Int] {
        rows.indices.filter { rows[$0].text.contains("|") || rows[$0].text.contains("+-") }
    }

    @Test func aTiltShowsAnArrowOnItsSide() {
        let state = Self.state(side: 4)
        for (direction, arrow) in [(Direction.left, "<"), (.right, ">"), (.up, "^"), (.down, "v")] {
            let rows = Self.render(state, mark: .init(direction: direction, blocked: false), width: 100, height: 40)
            let board = Self.boardRows(rows)
            let arrowRow: Int
            switch direction {
            case .up: arrowRow = board.first! - 1
            case .down: arrowRow = board.last! + 1
            case .left, .right: arrowRow = board[board.count / 2]
            }
            #expect(rows[arrowRow].text.contains(arrow), "\(direction)")
            #expect(rows.allSatisfy { $0.highlights.isEmpty }, "a tile slid: no bump")
            let textLeft = rows[arrowRow].text.trimmingCharacters(in: .whitespaces)
            if direction == .left { #expect(textLeft.hasPrefix("<")) }
            if direction == .right { #expect(textLeft.hasSuffix(">")) }
        }
    }

    /// An illegal tilt bumps: the arrow and the board's edge on that side in reverse video.
    @Test func anIllegalTiltBumpsTheEdgeItPointsTo() {
        let state = Self.state(side: 4)
        let left = Self.render(state, mark: .init(direction: .left, blocked: true), width: 100, height: 40)
        for index in Self.boardRows(left) {
            let row = left[index]
            let edge = row.text.firstIndex { $0 == "|" || $0 == "+" }.map { row.text.distance(from: row.text.startIndex, to: $0) }!
            #expect(row.highlights.contains(edge ..< edge + 1), "row \(index)")
        }
        let arrowRow = Self.boardRows(left)[Self.boardRows(left).count / 2]
        let arrow = left[arrowRow].text.firstIndex(of: "<").map { left[arrowRow].text.distance(from: left[arrowRow].text.startIndex, to: $0) }!
        #expect(left[arrowRow].highlights.contains(arrow ..< arrow + 1))

        let up = Self.render(state, mark: .init(direction: .up, blocked: true), width: 100, height: 40)
        let top = up[Self.boardRows(up).first!]
        #expect(top.highlights.count == 1 && top.highlights[0].count == top.text.trimmingCharacters(in: .whitespaces).count)
        #expect(up[Self.boardRows(up).first! - 1].highlights.count == 1, "the ^ above it")
        #expect(up[Self.boardRows(up).last!].highlights.isEmpty, "not the bottom edge")
    }
}
