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
}
