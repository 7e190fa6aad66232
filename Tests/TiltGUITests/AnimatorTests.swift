// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
@testable import TiltGUI

@Suite struct AnimatorTests {
    static let frame = 1.0 / 60

    /// A solved 4×4 board and `count` legal moves that walk the gap around it.
    static func movesFromSolved(_ count: Int) -> (board: [Int], moves: [Move]) {
        var puzzle = Puzzle(side: 4)
        var moves: [Move] = []
        let cycle: [Direction] = [.right, .down, .left, .up]
        var step = 0
        while moves.count < count {
            moves += puzzle.tilt(cycle[step % cycle.count])
            step += 1
        }
        return (Board(side: 4).values, moves)
    }

    @Test func oneSlideTakesTheNominalDurationAndEasesOut() {
        let (board, moves) = Self.movesFromSolved(1)
        var animator = Animator(board: board, side: 4)
        let accepted = animator.enqueue(moves[0])
        #expect(accepted)
        #expect(animator.currentSlideDuration == Animator.slideDuration)
        animator.advance(by: Animator.slideDuration / 2)
        // Ease-out: more than half the way at half the time.
        #expect(animator.isAnimating)
        #expect(animator.currentProgress > 0.75 && animator.currentProgress < 1)
        animator.advance(by: Animator.slideDuration / 2 + 1e-9)
        #expect(!animator.isAnimating)
        #expect(animator.board == animator.target)
    }

    @Test func theMovingTileIsDrawnBetweenItsCells() {
        let (board, moves) = Self.movesFromSolved(1)   // tile 14 slides right into 15
        var animator = Animator(board: board, side: 4)
        animator.enqueue(moves[0])
        animator.advance(by: 0.03)
        let moving = animator.placements.first { $0.tile == board[moves[0].from] }!
        #expect(moving.row == 3)
        #expect(moving.column > 2 && moving.column < 3)
        #expect(animator.placements.count == 15)
    }

    @Test func queuedSlidesPlayInOrderAndEachIsSeenOnItsWay() {
        let (board, moves) = Self.movesFromSolved(20)
        var animator = Animator(board: board, side: 4, frameInterval: Self.frame)
        let accepted = moves.map { animator.enqueue($0) }
        #expect(!accepted.contains(false))
        var seen: [Animator.Slide] = []
        var frames = 0
        while animator.isAnimating {
            animator.advance(by: Self.frame)
            frames += 1
            if let slide = animator.current, animator.currentProgress > 0, animator.currentProgress < 1, seen.last != slide {
                seen.append(slide)
            }
        }
        #expect(seen.map { Move(from: $0.from, to: $0.to, direction: $0.direction) } == moves)
        #expect(animator.board == animator.target)
        // 20 slides at no less than two frames each, and no more.
        #expect(frames >= 40 && frames <= 42)
    }

    @Test func aBacklogSpeedsUpToEndWithinOneNominalSlide() {
        let (board, moves) = Self.movesFromSolved(3)
        var animator = Animator(board: board, side: 4, frameInterval: Self.frame)
        moves.forEach { animator.enqueue($0) }
        #expect(abs(animator.currentSlideDuration - Animator.slideDuration / 3) < 1e-12)
        #expect(abs(animator.remainingTime - Animator.slideDuration) < 1e-12)
        animator.advance(by: Animator.slideDuration + 1e-9)
        #expect(!animator.isAnimating)
    }

    @Test func movesArrivingFasterThanSlidesNeverPileUp() {
        // A key repeating at 25 Hz: a move every 40 ms, three times faster than a nominal slide.
        let (board, moves) = Self.movesFromSolved(40)
        var animator = Animator(board: board, side: 4, frameInterval: Self.frame)
        var worstLag = 0.0
        var next = 0
        var time = 0.0
        while next < moves.count || animator.isAnimating {
            while next < moves.count, Double(next) * 0.04 <= time {
                animator.enqueue(moves[next])
                next += 1
            }
            worstLag = max(worstLag, animator.remainingTime)
            animator.advance(by: Self.frame)
            time += Self.frame
        }
        // Each move sets the deadline: the board is never more than one nominal slide (and a frame) behind.
        #expect(worstLag <= Animator.slideDuration + 2 * Self.frame)
        #expect(animator.board == animator.target)
    }

    @Test func aLateFrameCarriesOverIntoTheNextSlide() {
        let (board, moves) = Self.movesFromSolved(2)
        var animator = Animator(board: board, side: 4)
        moves.forEach { animator.enqueue($0) }
        // Two slides share 120 ms; 90 ms finishes one and is half way through the other.
        animator.advance(by: 0.09)
        #expect(animator.pendingSlides == 1)
        #expect(animator.current?.from == moves[1].from)
        #expect(animator.currentProgress > 0.5)
    }

    @Test func aMoveThatDoesNotFitIsRefused() {
        var animator = Animator(board: Board(side: 4).values, side: 4)
        // Cell 0 is not empty on a solved board.
        let wrongMoves = [Move(from: 1, to: 0, direction: .left), Move(from: 15, to: 14, direction: .left),
                          Move(from: 99, to: 15, direction: .left)]
        let accepted = wrongMoves.map { animator.enqueue($0) }
        #expect(accepted == [false, false, false])
        #expect(!animator.isAnimating)
    }

    @Test(arguments: [(Direction.up, 0.0, -1.0), (.down, 0, 1), (.left, -1, 0), (.right, 1, 0)])
    func aBumpPushesTheBoardThatWayAndBack(direction: Direction, x: Double, y: Double) {
        var animator = Animator(board: Board(side: 3).values, side: 3)
        animator.bump(direction)
        animator.advance(by: Animator.bumpDuration / 2)
        let offset = animator.boardOffset
        #expect(abs(offset.x - x * Animator.bumpDistance) < 1e-9)
        #expect(abs(offset.y - y * Animator.bumpDistance) < 1e-9)
        animator.advance(by: Animator.bumpDuration / 2)
        #expect(!animator.isAnimating)
        #expect(animator.boardOffset == (0, 0))
    }

    @Test func resetShowsTheNewBoardAtOnce() {
        let (board, moves) = Self.movesFromSolved(3)
        var animator = Animator(board: board, side: 4)
        moves.forEach { animator.enqueue($0) }
        let fresh = Board(side: 3).values
        animator.reset(board: fresh, side: 3)
        #expect(!animator.isAnimating)
        #expect(animator.board == fresh && animator.target == fresh)
        #expect(animator.placements.count == 8)
    }

    @Test func easeOutStartsFastAndLandsExactly() {
        #expect(Animator.easeOut(0) == 0)
        #expect(Animator.easeOut(1) == 1)
        #expect(Animator.easeOut(0.25) > 0.5)
        #expect(Animator.easeOut(0.9) < 1)
    }

    /// A tapped tile that cannot move shakes sideways in its cell and comes to rest;
    /// no other tile moves and the board stays where it is.
    @Test func aNudgedTileShakesSidewaysAndSettles() throws {
        var animator = Animator(board: Board(side: 3).values, side: 3)
        animator.nudge(at: 4)
        #expect(animator.isAnimating)
        var widest = 0.0
        var sides: Set<Bool> = []
        for _ in 0..<Int((Animator.nudgeDuration / AnimatorTests.frame).rounded(.up)) {
            animator.advance(by: AnimatorTests.frame)
            guard let shake = animator.nudgeOffset else { break }
            #expect(shake.index == 4)
            widest = max(widest, abs(shake.x))
            if abs(shake.x) > 0.01 { sides.insert(shake.x > 0) }
            let tile = try #require(animator.placements.first { $0.tile == 4 })
            #expect(tile.row == 1 && abs(tile.column - (1 + shake.x)) < 1e-9)
            #expect(animator.placements.filter { $0.tile != 4 }.allSatisfy { $0.column == Double(Int($0.column)) })
            #expect(animator.boardOffset == (0, 0))
        }
        #expect(widest > Animator.nudgeDistance / 3 && widest <= Animator.nudgeDistance, "a visible shake, \(widest) cells")
        #expect(sides == [true, false], "it shakes both ways")
        #expect(!animator.isAnimating)
        #expect(animator.nudgeOffset == nil)
        #expect(animator.placements.allSatisfy { $0.column == Double(Int($0.column)) }, "every tile back in its cell")
    }

    @Test func theGapCannotBeNudgedAndANewBoardStopsAShake() {
        var animator = Animator(board: Board(side: 3).values, side: 3)
        animator.nudge(at: 8)
        #expect(!animator.isAnimating, "the gap has no tile")
        animator.nudge(at: 0)
        animator.reset(board: Board(side: 3).values, side: 3)
        #expect(animator.nudgeOffset == nil && !animator.isAnimating)
    }
}
