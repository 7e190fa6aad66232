// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltDaemon

@Suite struct LoggerTests {
    @Test func journalLinesCarryPriorities() {
        var lines: [String] = []
        let journal = Logger(level: .info, journal: true) { lines.append($0) }
        journal.error("disk on fire")
        journal.info("two\nlines")
        journal.debug("hidden")
        #expect(lines == ["<3>disk on fire\n", "<6>two\\nlines\n"])
        var plain: [String] = []
        Logger(level: .warning) { plain.append($0) }.warning("careful")
        #expect(plain == ["warning: careful\n"])
    }
}
