// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCommandLine

@Suite struct ParsedArgumentsTests {
    static let output = OptionSpec("--output", short: "o", value: "FILE", help: "Where.")
    static let quiet = OptionSpec("--quiet", help: "Less.")
    static let count = OptionSpec("--count", value: "N", help: "How many.")
    static let spec = CommandSpec("record", summary: "Record.", arguments: [ArgumentSpec("NAME", help: "A name.", optional: true)],
                                  options: [output, quiet, count])

    @Test func shortAliasesLongOptionsAndEquals() throws {
        let a = try ParsedArguments(["-o", "x.csv", "--quiet", "n"], for: Self.spec, program: "p")
        #expect(a.value(Self.output) == "x.csv" && a.flag(Self.quiet) && a.argument(0) == "n")
        let b = try ParsedArguments(["--output=y.csv"], for: Self.spec, program: "p")
        #expect(b.value(Self.output) == "y.csv")
        #expect(!b.flag(Self.quiet))
        #expect(Self.spec.helpText(program: "p").contains("-o, --output FILE"))
    }

    @Test func convertedValuesNameTheOptionWhenWrong() throws {
        let good = try ParsedArguments(["--count", "3"], for: Self.spec, program: "p")
        #expect(try good.value(Self.count, as: "a count") { Int($0) } == 3)
        let bad = try ParsedArguments(["--count", "many"], for: Self.spec, program: "p")
        #expect(throws: UsageError("--count expects a count, not 'many'")) {
            try bad.value(Self.count, as: "a count") { Int($0) }
        }
    }

    @Test(arguments: [["--nope"], ["-x"], ["--output"], ["--quiet=1"], ["a", "b"]])
    func usageErrorsSayWhatIsWrong(arguments: [String]) {
        #expect(throws: UsageError.self) { try ParsedArguments(arguments, for: Self.spec, program: "p") }
    }
}

/// Help is generated from the declarations and fits an 80-column terminal.
@Suite struct HelpTextTests {
    @Test func longTextIsWrappedUnderItsColumn() {
        let spec = CommandSpec("demo", summary: String(repeating: "a long summary ", count: 12),
                               options: [OptionSpec("--speed", value: "FACTOR",
                                                    help: String(repeating: "words that go on ", count: 10))])
        let lines = spec.helpText(program: "tiltpuzzle").split(separator: "\n")
        for line in lines { #expect(line.count <= CommandSpec.helpWidth, "\(line)") }
        let speed = lines.firstIndex { $0.contains("--speed FACTOR") }!
        #expect(lines[speed + 1].hasPrefix(String(repeating: " ", count: 10)), "the rest of the text stays under its column")
    }

    @Test func aWordLongerThanTheWidthStandsAlone() {
        let word = String(repeating: "x", count: 100)
        #expect(CommandSpec.paragraph("short \(word) end") == "short\n\(word)\nend")
    }

    /// Lines the source broke are joined and filled again: no line ends early when
    /// the next word would have fitted (it did: "(near-shortest⏎from 5×5 up)").
    @Test func aParagraphIsFilledAtWordBoundaries() {
        let source = """
            The demo shuffles a game, asks the solver for its shortest solution (near-shortest
            from 5×5 up), and has a simulated hand play it: the tablet held a few degrees off
            flat, each tilt ramped in at human speed.

            - a list item stays on its own line
            """
        let lines = CommandSpec.paragraph(source).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "The demo shuffles a game, asks the solver for its shortest solution")
        #expect(lines.contains("(near-shortest from 5×5 up), and has a simulated hand play it: the tablet held a"))
        #expect(lines.suffix(2) == ["", "- a list item stays on its own line"])
        for (line, next) in zip(lines, lines.dropFirst()) where !line.isEmpty && !next.isEmpty && !next.hasPrefix("- ") {
            #expect(line.count <= CommandSpec.helpWidth)
            #expect(line.count + 1 + next.prefix { $0 != " " }.count > CommandSpec.helpWidth, "\(line)")
        }
    }

    /// A program's own spec is named once in its hints: not 'tiltpuzzled tiltpuzzled --help'.
    @Test func theHintNamesTheProgramOnce() {
        let own = CommandSpec("tiltpuzzled", summary: "The daemon.")
        #expect(throws: UsageError("unknown option '--bogus' for 'tiltpuzzled'", hint: "see 'tiltpuzzled --help'")) {
            try ParsedArguments(["--bogus"], for: own, program: "tiltpuzzled")
        }
        #expect(throws: UsageError("unknown option '--bogus' for 'record'", hint: "see 'p record --help'")) {
            try ParsedArguments(["--bogus"], for: ParsedArgumentsTests.spec, program: "p")
        }
    }

    static let group = CommandGroup(program: "p", summary: "P.",
                                    globalOptions: [OptionSpec("--socket", value: "PATH", help: "Where."),
                                                    OptionSpec("--version", help: "Version.")],
                                    commands: [ParsedArgumentsTests.spec])

    @Test func aGlobalOptionAfterTheCommandWorksOrSaysWhereItGoes() throws {
        guard case .command(_, _, let arguments) = try Self.group.parse(["record", "--socket", "/s"]) else {
            Issue.record("not a command")
            return
        }
        #expect(arguments.value(OptionSpec("--socket", value: "PATH", help: "")) == "/s")
        #expect(throws: UsageError("--version goes before the command: p --version", hint: "see 'p --help'")) {
            try Self.group.parse(["record", "--version"])
        }
    }

    /// The bare program name lists the commands, as the help does.
    @Test func noCommandListsTheCommands() {
        #expect(throws: UsageError("no command given", hint: "see 'p --help'", details: "Commands:\n  record  Record.")) {
            try Self.group.parse(["--socket", "/s"])
        }
        #expect(Self.group.helpText.contains("\n\nCommands:\n  record  Record.\n"))
    }

    @Test func helpOnAnUnknownTopicIsAUsageError() {
        #expect(throws: UsageError("no help on 'bogus': it is not a command", hint: "see 'p --help'")) {
            try Self.group.parse(["help", "bogus"])
        }
    }
}
