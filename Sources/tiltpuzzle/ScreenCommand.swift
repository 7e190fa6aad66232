// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltCommandLine
import TiltCore
import TiltSystem
import TiltWire

/// `screen [ROTATION]`: how the picture is turned, which the daemon reads tilts for
/// (docs/protocol.md, "Screen rotation"). The graphical board says it by itself.
enum ScreenCommand: ClientCommand {
    static let rotation = ArgumentSpec(
        "ROTATION", help: L("{0}: degrees the picture is turned counter-clockwise. Without it, show the rotation in force.", ScreenRotation.allowedText),
        optional: true)
    static let spec = CommandSpec(
        "screen", summary: L("Show or set how the picture is turned, so tilts follow it."), arguments: [rotation],
        discussion: L("The window that shows the board tells the daemon by itself when the desktop turns the picture; this is for a display that says nothing of it, or for a script. The rotation stays until another is set, or the daemon restarts."))

    static func run(_ arguments: ParsedArguments) -> Int32 {
        switch checked(spec, { () throws(UsageError) in
            try arguments.argument(0).map { text throws(UsageError) in
                guard let degrees = Int(text), let rotation = ScreenRotation(rawValue: degrees) else {
                    throw UsageError(L("ROTATION must be {0}, not '{1}'", ScreenRotation.allowedText, text))
                }
                return rotation
            }
        }) {
        case .failure(let exit): return exit.status
        case .success(let rotation):
            return OneShot.perform(.screen(rotation), arguments) { messages in
                // Asking shows the daemon's answer; setting shows what is in force now.
                let told = messages.compactMap { if case .screen(let r) = $0 { r } else { nil } }.last
                return (told ?? rotation).map(GameText.screenText)
            }
        }
    }
}
