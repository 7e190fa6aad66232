// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSystem
import TiltWire

/// A daemon's refusal as the player reads it: the daemon's English sentence found again
/// by its template (`Refusal`) and said in the player's language; a sentence this client
/// does not know (a newer daemon's) as the daemon wrote it.
public enum RefusalText {
    public static func text(_ code: ErrorCode, _ message: String) -> String {
        for sentence in Refusal.sentences(for: code) {
            if let found = sentence.reading(message) { return L.translated(found) }
        }
        return message
    }
}
