// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore

/// What the daemon says when it refuses a request a player's client can make: English
/// on the wire (docs/protocol.md, "Errors"), each sentence defined once here, so a client
/// finds it again by its template and shows it in the player's language
/// (`RefusalText`, docs/client.md, "Languages").
public enum Refusal {
    public static let noSensor = TranslatableText("calibration needs a sensor sample; is a sensor attached?")

    public static func notSaved(_ command: String) -> TranslatableText {
        TranslatableText("{0} was done but could not be saved", command)
    }

    public static func tooManyClients(_ limit: Int) -> TranslatableText {
        TranslatableText("the daemon serves at most {0} clients", limit)
    }

    public static func cellOutsideBoard(_ index: Int, side: Int) -> TranslatableText {
        TranslatableText("index {0} is outside the {1}×{1} board", index, side)
    }

    /// The sentences the daemon may send with `code` that a client can say in the
    /// player's language (their arguments are placeholders to be read back).
    public static func sentences(for code: ErrorCode) -> [TranslatableText] {
        switch code {
        case .noSensor: [noSensor]
        case .saveFailed: [notSaved("")]
        case .tooManyClients: [tooManyClients(0)]
        case .badArgument:
            [cellOutsideBoard(0, side: 0)] + Sensitivity.Problem.allCases.map(\.text)
        default: []
        }
    }
}
