// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem

/// Lines for a person watching, written at once: Swift's `print` holds them in a
/// buffer when the output is a pipe or a file, so `demo > file` or `watch | tee`
/// would show nothing for a minute (docs/client.md).
public enum StandardOutput {
    public static func print(_ line: String) throws(Errno) {
        try FileDescriptor.standardOutput.writeAll(line + "\n")
    }
}
