// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltTerminal

/// What a terminal is sent to draw a frame.
struct ScreenFrameTests {
    @Test func drawsEachRowInPlaceWithReverseVideo() {
        let frame = ScreenFrame.draw([ScreenRow("ab"), ScreenRow("x<|y", highlights: [2 ..< 3, 1 ..< 2])])
        #expect(frame == "\u{1B}[1;1Hab\u{1B}[K\u{1B}[2;1Hx\u{1B}[7m<\u{1B}[27m\u{1B}[7m|\u{1B}[27my\u{1B}[K")
    }

    @Test func entersAndLeavesTheAlternateScreen() {
        #expect(ScreenFrame.enter.contains("\u{1B}[?1049h") && ScreenFrame.enter.contains("\u{1B}[?25l"))
        #expect(ScreenFrame.leave.description.contains("\u{1B}[?1049l") && ScreenFrame.leave.description.contains("\u{1B}[?25h"))
    }
}
