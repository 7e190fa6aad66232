// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem

/// Messages for the person at the terminal, on standard error, one line each.
public enum StandardError {
    /// Writes `message` and a newline; a failed write is not worth another error.
    public static func print(_ message: String) {
        try? FileDescriptor.standardError.writeAll(message + "\n")
    }

    /// A usage error as every program reports it: the message, its details if any, a hint (where to
    /// read more, unless the error has a better one), exit 64.
    public static func report(_ error: UsageError, program: String, help: String? = nil) -> Int32 {
        print("\(program): \(error.message)")
        if let details = error.details { print(details) }
        print("(\(error.hint ?? L("see '{0} --help'", help ?? program)))")
        return ExitStatus.usage
    }
}
