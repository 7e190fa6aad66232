// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem

/// Asks fontconfig (`fc-match`) for a bold sans font file: the fallback when no
/// known path exists. nil when fc-match is missing or says nothing useful.
enum FontConfig {
    static func boldSans() -> String? {
        guard let result = try? ChildProcess.output(of: ["fc-match", "-f", "%{file}", "sans:bold"]),
              result.status == 0 else { return nil }
        let path = String(decoding: result.output, as: UTF8.self)
        return path.hasPrefix("/") ? path : nil
    }
}
