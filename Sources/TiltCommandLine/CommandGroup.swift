// SPDX-License-Identifier: GPL-3.0-or-later
/// A program made of subcommands (`tiltpuzzle status`), with global options before them.
import TiltSystem
public struct CommandGroup: Sendable {
    public var program: String
    public var summary: String
    public var globalOptions: [OptionSpec]
    public var commands: [CommandSpec]

    public init(program: String, summary: String, globalOptions: [OptionSpec], commands: [CommandSpec]) {
        self.program = program
        self.summary = summary
        self.globalOptions = globalOptions
        self.commands = commands
    }

    public var helpText: String {
        var text = "\(CommandSpec.paragraph(summary))\n\n" + L("Usage: {0} [global options] <command> [options]", program) + "\n"
        text += "\n" + commandList
        text += "\n" + L("Global options:") + "\n" + CommandSpec.table((globalOptions + [CommandSpec.help]).map { ($0.usage, $0.help) })
        text += "\n" + L("Run '{0} <command> --help' for a command's options.", program) + "\n"
        return text
    }

    /// `Commands:` and a line for each, as the help lists them.
    public var commandList: String {
        L("Commands:") + "\n" + CommandSpec.table(commands.map { ($0.name, $0.summary) })
    }

    public enum Invocation {
        case help
        case version
        case command(CommandSpec, global: ParsedArguments, arguments: ParsedArguments)
    }

    /// Splits global options, the command name and the command's own arguments.
    public func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        let globalSpec = CommandSpec(program, summary: summary, options: globalOptions)
        var globalArguments: [String] = []
        var rest = arguments[...]
        while let first = rest.first, first.hasPrefix("-") {
            rest = rest.dropFirst()
            globalArguments.append(first)
            if let option = globalOptions.first(where: { $0.name == first }), !option.isFlag, let value = rest.first {
                globalArguments.append(value)
                rest = rest.dropFirst()
            }
        }
        let global = try ParsedArguments(globalArguments, for: globalSpec, program: program)
        if global.wantsHelp { return .help }
        if global.flag("--version") { return .version }
        guard let name = rest.first else {
            // A newcomer typing the bare name learns what there is to type.
            var list = commandList
            if list.hasSuffix("\n") { list.removeLast() }
            throw UsageError(L("no command given"), hint: L("see '{0} --help'", program), details: list)
        }
        if name == "help" {
            guard let topic = rest.dropFirst().first else { return .help }
            guard let spec = commands.first(where: { $0.name == topic }) else {
                throw UsageError(L("no help on '{0}': it is not a command", topic), hint: L("see '{0} --help'", program))
            }
            return .command(spec, global: global, arguments: try ParsedArguments(["--help"], for: spec, program: program))
        }
        guard let spec = commands.first(where: { $0.name == name }) else {
            throw UsageError(L("unknown command '{0}'", name), hint: L("see '{0} --help'", program))
        }
        try checkNoGlobalFlag(in: rest.dropFirst(), for: spec)
        let arguments = try ParsedArguments(Array(rest.dropFirst()), for: acceptingGlobalValues(spec), program: program)
        return .command(spec, global: global, arguments: arguments.adding(global))
    }

    /// `spec` also taking the global options that have a value (`status --socket X`
    /// works as `--socket X status` does); a global flag after the command (`--version`)
    /// is answered with where it goes.
    private func acceptingGlobalValues(_ spec: CommandSpec) -> CommandSpec {
        var parsing = spec
        parsing.options += globalOptions.filter { global in
            !global.isFlag && !spec.allOptions.contains { $0.name == global.name }
        }
        return parsing
    }

    /// A global flag after the command: where it goes instead.
    private func checkNoGlobalFlag(in arguments: ArraySlice<String>, for spec: CommandSpec) throws(UsageError) {
        for argument in arguments.prefix(while: { $0 != "--" }) {
            guard let global = globalOptions.first(where: { $0.isFlag && $0.name == argument }),
                  !spec.allOptions.contains(where: { $0.name == global.name }) else { continue }
            throw UsageError(L("{0} goes before the command: {1} {0}", global.name, program),
                             hint: L("see '{0} --help'", program))
        }
    }
}
