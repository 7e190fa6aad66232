import Testing
import TiltCommandLine

@Suite struct ParsedArgumentsTests {
    static let spec = CommandSpec("record", summary: "Record.", arguments: [ArgumentSpec("NAME", help: "A name.", optional: true)],
                                  options: [OptionSpec("--output", short: "o", value: "FILE", help: "Where."),
                                            OptionSpec("--quiet", help: "Less.")])

    @Test func shortAliasesLongOptionsAndEquals() throws {
        let a = try ParsedArguments(["-o", "x.csv", "--quiet", "n"], for: Self.spec, program: "p")
        #expect(a.value("--output") == "x.csv" && a.flag("--quiet") && a.argument(0) == "n")
        let b = try ParsedArguments(["--output=y.csv"], for: Self.spec, program: "p")
        #expect(b.value("--output") == "y.csv")
        #expect(Self.spec.helpText(program: "p").contains("-o, --output FILE"))
    }

    @Test(arguments: [["--nope"], ["-x"], ["--output"], ["--quiet=1"], ["a", "b"]])
    func usageErrorsSayWhatIsWrong(arguments: [String]) {
        #expect(throws: UsageError.self) { try ParsedArguments(arguments, for: Self.spec, program: "p") }
    }
}
