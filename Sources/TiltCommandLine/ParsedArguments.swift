/// What the user typed, checked against a `CommandSpec`.
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
        let hint = "see '\(spec.invocation(program: program)) --help'"
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
                    throw UsageError("unknown option '\(name)' for '\(spec.name)'", hint: hint)
                }
                if option.isFlag {
                    guard inline == nil else { throw UsageError("option '\(name)' takes no value", hint: hint) }
                    flags.insert(name)
                } else {
                    guard let value = inline ?? iterator.next() else {
                        throw UsageError("option '\(name)' needs a value \(option.valueName ?? "")", hint: hint)
                    }
                    values[name] = value
                }
            } else if !optionsEnded, argument.hasPrefix("-"), argument.count > 1, Double(argument) == nil {
                throw UsageError("unknown option '\(argument)' for '\(spec.name)'", hint: hint)
            } else {
                positionals.append(argument)
            }
        }
        if wantsHelp { return }
        let required = spec.arguments.filter { !$0.isOptional }.count
        if positionals.count < required {
            let missing = spec.arguments[positionals.count].name
            throw UsageError("'\(spec.name)' needs \(missing)", hint: hint)
        }
        if positionals.count > spec.arguments.count {
            throw UsageError("unexpected argument '\(positionals[spec.arguments.count])' for '\(spec.name)'", hint: hint)
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
        guard let value = convert(text) else { throw UsageError("\(option.name) expects \(what), not '\(text)'") }
        return value
    }
}
