// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import Testing
import TiltDaemon

/// The man pages `make install` puts in MANDIR: made from docs/*.md by go-md2man, they
/// must format without a warning and carry a NAME line whatis can index.
@Suite struct ManPageTests {
    struct Page: CustomStringConvertible, Sendable {
        var name: String
        var section: Int
        var summary: String
        var file: String { "usr/share/man/man\(section)/\(name).\(section)" }
        var description: String { "\(name)(\(section))" }
    }

    static let pages = [
        Page(name: "tiltpuzzle", section: 1, summary: "play the tilt puzzle of a tiltpuzzled daemon"),
        Page(name: "tiltpuzzled.conf", section: 5, summary: "configuration file of the tiltpuzzled daemon"),
        Page(name: "tiltpuzzled", section: 8,
             summary: "turns an accelerometer's tilts into sliding-puzzle moves and serves them on a Unix socket"),
    ]

    /// `man -l` on an installed page: its text (no line breaks to wrap a key's line) and
    /// what groff and man complained about.
    static func format(_ path: String) throws -> CommandResult {
        let man = try Command.tool("man", package: "man-db")
        return try Command.run(man, ["--warnings", "-E", "UTF-8", "-l", path],
                               environment: ["MANWIDTH": "200", "MANPAGER": "cat", "PAGER": "cat"])
    }

    static func installed() throws -> TemporaryDirectory {
        let destination = TemporaryDirectory()
        _ = try InstallTests.make("install", ["DESTDIR": destination.path, "PREFIX": "/usr"])
        return destination
    }

    @Test(arguments: pages)
    func formatsWithoutWarnings(page: Page) throws {
        let destination = try Self.installed()
        let result = try Self.format(destination.file(page.file))
        #expect(result.succeeded, "\(result.transcript)")
        #expect(result.errors == "", "man --warnings: \(result.errors)")
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasPrefix("\(page.name)(\(page.section))") == true, "the header names the page: \(lines.first ?? "")")
        #expect(lines.last(where: { !$0.isEmpty })?.hasPrefix("tiltpuzzle \(DaemonInfo.version) ") == true,
                "the footer names the version")
        for heading in ["NAME", "SYNOPSIS", "DESCRIPTION", "SEE ALSO"] {
            #expect(lines.contains(Substring(heading)), "\(page): no \(heading) section")
        }
    }

    @Test(arguments: pages)
    func whatisReadsTheNameLine(page: Page) throws {
        let destination = try Self.installed()
        let lexgrog = try Command.tool("lexgrog", package: "man-db")
        let path = destination.file(page.file)
        let result = try Command.run(lexgrog, [path])
        #expect(result.succeeded, "\(result.transcript)")
        #expect(result.output == "\(path): \"\(page.name) - \(page.summary)\"\n")
    }

    @Test func configurationPageListsEveryKeyWithItsDefault() throws {
        let destination = try Self.installed()
        let result = try Self.format(destination.file(Self.pages[1].file))
        let lines = result.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for section in Set(Configuration.keys.map(\.section)) {
            #expect(lines.contains("[\(section)]"), "no subsection [\(section)]")
        }
        for key in Configuration.keys {
            let entry = key.defaultValue.isEmpty ? "\(key.name) =" : "\(key.name) = \(key.defaultValue)"
            #expect(lines.contains(entry), "\(entry) is missing")
        }
    }

    /// scripts/conf-keys.awk knows the example file's layout; a line of another shape
    /// fails the build rather than dropping a key from the page.
    @Test(arguments: [
        "[game]\n# Undo levels kept.\nundo-levels = 1000\n",
        "[game]\n#undo-levels = 1000\n",
        "[game]\n# Undo levels kept.\n",
    ])
    func keyListRefusesALineItDoesNotKnow(body: String) throws {
        let awk = try Command.tool("awk", package: "mawk")
        let scratch = TemporaryDirectory()
        try "# The opening comment.\n\n\(body)".write(to: "example.conf", in: scratch)
        let failing = try Command.run(awk, ["-f", Repository.path("scripts/conf-keys.awk"), scratch.file("example.conf")])
        #expect(!failing.succeeded, "accepted:\n\(failing.output)")

        try "# The opening comment.\n\n[game]\n# Undo levels kept.\n#undo-levels = 1000\n".write(to: "good.conf", in: scratch)
        let passing = try Command.run(awk, ["-f", Repository.path("scripts/conf-keys.awk"), scratch.file("good.conf")])
        #expect(passing.succeeded, "\(passing.transcript)")
        #expect(passing.output == "### [game]\n\n`undo-levels = 1000`\n:   Undo levels kept.\n\n")
    }
}

private extension String {
    func write(to name: String, in folder: TemporaryDirectory) throws {
        try folder.write(self, to: name)
    }
}
