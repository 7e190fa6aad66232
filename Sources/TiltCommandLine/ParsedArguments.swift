// SPDX-License-Identifier: GPL-3.0-or-later
/// What the user typed, checked against a `CommandSpec`.
import TiltSystem
public struct ParsedArguments: Sendable {
    public private(set) var values: [String: String] = [:]
    public private(set) var flags: Set<String> = []
    public private(set) var positionals: [String] = []
    public var wantsHelp: Bool { flags.contains("--help") }

    /// An option's value, by its declaration: a misspelt option does not compile.
    public func value(_ option: OptionSpec) -> String? { values[option.name] }
    public func flag(_ option: OptionSpec) -> Bool { flags.contains(option.name) }

    func value(_ name: String) -> String? { values[name] }
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The positional argument declared as `name`, if given.
    public func argument(_ index: Int) -> String? { index < positionals.count ? positionals[index] : nil }

    /// Parses `arguments` for `spec`. Options may come before or after the arguments;
    /// `--name=value` and `--name value` both work; `--` ends the options.
    public init(_ arguments: [String], for spec: CommandSpec, program: String) throws(UsageError) {
        let hint = L("see '{0} --help'", spec.invocation(program: program))
        var iterator = arguments.makeIterator()
        var optionsEnded = false
        while var argument = iterator.next() {
            // A one-letter alias stands for its long option.
            if !optionsEnded, argument.count == 2, argument.hasPrefix("-"),
               let option = spec.allOptions.first(where: { $0.short == argument.last }) {
                argument = option.name
            }
            if !optionsEnded, argument == "--" {
                optionsEnded = true
            } else if !optionsEnded, argument.hasPrefix("--") {
                var name = argument
                var inline: String?
                if let equals = argument.firstIndex(of: "=") {
                    name = String(argument[..<equals])
                    inline = String(argument[argument.index(after: equals)...])
                }
                guard let option = spec.allOptions.first(where: { $0.name == name }) else {
                    throw UsageError(L("unknown option '{0}' for '{1}'", name, spec.name), hint: hint)
                }
                if option.isFlag {
                    guard inline == nil else { throw UsageError(L("option '{0}' takes no value", name), hint: hint) }
                    flags.insert(name)
                } else {
                    guard let value = inline ?? iterator.next() else {
                        throw UsageError(L("option '{0}' needs a value {1}", name, option.valueName ?? ""), hint: hint)
                    }
                    values[name] = value
                }
            } else if !optionsEnded, argument.hasPrefix("-"), argument.count > 1, Double(argument) == nil {
                throw UsageError(L("unknown option '{0}' for '{1}'", argument, spec.name), hint: hint)
            } else {
                positionals.append(argument)
            }
        }
        if wantsHelp { return }
        let required = spec.arguments.filter { !$0.isOptional }.count
        if positionals.count < required {
            let missing = spec.arguments[positionals.count].name
            throw UsageError(L("'{0}' needs {1}", spec.name, missing), hint: hint)
        }
        if positionals.count > spec.arguments.count {
            throw UsageError(L("unexpected argument '{0}' for '{1}'", positionals[spec.arguments.count], spec.name), hint: hint)
        }
    }

    /// These arguments with `global`'s options added (a command sees the global
    /// `--socket` as its own).
    public func adding(_ global: ParsedArguments) -> ParsedArguments {
        var merged = self
        merged.values.merge(global.values) { own, _ in own }
        merged.flags.formUnion(global.flags.subtracting(["--help"]))
        return merged
    }

    /// An option's value converted by `convert`, or a usage error naming it.
    public func value<T>(_ option: OptionSpec, as what: String, _ convert: (String) -> T?) throws(UsageError) -> T? {
        guard let text = values[option.name] else { return nil }
        guard let value = convert(text) else { throw UsageError(L("{0} expects {1}, not '{2}'", option.name, what, text)) }
        return value
    }
}
