// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TiltClient
import TiltWire

/// Reads a drawn board back from screen text: the labels of each tile row, "" for the
/// empty cell. Works on a bordered board wherever it stands on the screen.
public enum ScreenBoard {
    public static func rows(_ screen: [String]) -> [[String]] {
        screen.compactMap { line -> [String]? in
            guard let first = line.firstIndex(of: "|"), let last = line.lastIndex(of: "|"), first < last else { return nil }
            let labels = line[line.index(after: first) ..< last].split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            return labels.contains { !$0.isEmpty } ? labels : nil
        }
    }

    /// The labels a board of `size` with these cells should show.
    public static func expected(size: Int, board: [Int]) -> [[String]] {
        (0..<size).map { row in (0..<size).map { GameText.label(board[row * size + $0], side: size) } }
    }
}
