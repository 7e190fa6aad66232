import TiltSystem

/// Messages for the person at the terminal, on standard error, one line each.
public enum StandardError {
    /// Writes `message` and a newline; a failed write is not worth another error.
    public static func print(_ message: String) {
        try? FileDescriptor.standardError.writeAll(message + "\n")
    }

    /// A usage error as every program reports it: the message, the hint, exit 64.
    public static func report(_ error: UsageError, program: String) -> Int32 {
        print("\(program): \(error.message)")
        if let hint = error.hint { print("(\(hint))") }
        return ExitStatus.usage
    }
}
