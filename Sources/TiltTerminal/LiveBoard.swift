// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltCommandLine
import TiltCore
import TiltSystem
import TiltWire
#if canImport(Glibc)
import Glibc
#endif

/// Shows a board that changes: redrawn in place on a terminal, one plain line per
/// event when the output is a pipe or a file.
public final class LiveBoard {
    private let interactive: Bool
    private let title: String
    private var drawnLines = 0
    private var lastEvent = ""

    public init(title: String) {
        interactive = Terminal.isUsable(.standardOutput, term: ProcessEnvironment.current["TERM"])
        self.title = title
        if interactive { write("\u{1B}[?25l") } else { try? StandardOutput.print(title) }
    }

    public func event(_ text: String) {
        lastEvent = text
        if !interactive { try? StandardOutput.print(text) }
    }

    public func show(_ state: GameState) {
        guard interactive else { return }
        var lines = [title, ""] + BoardText.lines(state)
        lines.append(GameText.movesText(state.moves) + (state.solved ? "   " + L("solved!") : ""))
        lines.append(lastEvent)
        var text = drawnLines > 0 ? "\u{1B}[\(drawnLines)A" : ""
        for line in lines { text += "\r\u{1B}[K" + line + "\n" }
        drawnLines = lines.count
        write(text)
    }

    public func finish() {
        if interactive { write("\u{1B}[?25h") }
    }

    private func write(_ text: String) {
        var text = text
        text.withUTF8 { _ = Glibc.write(1, $0.baseAddress, $0.count) }
    }

    /// Async-signal-safe: shows the cursor again.
    public static func restoreTerminalFromSignal() {
        // A static string: no allocation in a signal handler.
        let show: StaticString = "\u{1B}[?25h\n"
        _ = Glibc.write(1, show.utf8Start, show.utf8CodeUnitCount)
    }
}
