// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// One line per event on stderr; with `<N>` syslog priority prefixes when stderr
/// is the journal (systemd sets JOURNAL_STREAM to its device and inode).
public final class Logger: @unchecked Sendable {
    public enum Level: Int, Comparable, Sendable, CaseIterable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7

        public init?(name: String) {
            switch name {
            case "error": self = .error
            case "warning": self = .warning
            case "notice": self = .notice
            case "info": self = .info
            case "debug": self = .debug
            default: return nil
            }
        }

        public var name: String {
            switch self {
            case .error: "error"
            case .warning: "warning"
            case .notice: "notice"
            case .info: "info"
            case .debug: "debug"
            }
        }

        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    public var level: Level
    private let journal: Bool
    private let sink: (String) -> Void

    /// A logger writing to stderr.
    public convenience init(level: Level = .info) {
        self.init(level: level, journal: Logger.stderrIsJournal()) { line in
            var line = line
            line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        }
    }

    /// A logger writing lines (each ending in `\n`) to `sink`; for tests.
    public init(level: Level, journal: Bool = false, sink: @escaping (String) -> Void) {
        self.level = level
        self.journal = journal
        self.sink = sink
    }

    public func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard level <= self.level else { return }
        let text = message().replacingNewlines()
        sink(journal ? "<\(level.rawValue)>\(text)\n" : "\(level.name): \(text)\n")
    }

    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }

    static func stderrIsJournal() -> Bool {
        guard let value = getenv("JOURNAL_STREAM").map({ String(cString: $0) }) else { return false }
        var info = stat()
        guard fstat(2, &info) == 0 else { return false }
        return value == "\(info.st_dev):\(info.st_ino)"
    }
}

extension String {
    /// One event, one line: embedded newlines would split a log entry.
    func replacingNewlines() -> String {
        contains("\n") ? split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n") : self
    }
}
