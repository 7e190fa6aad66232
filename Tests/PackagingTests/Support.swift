// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// The repository's files: this file is `Tests/PackagingTests/Support.swift`.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    static func text(_ relative: String) throws -> String {
        try String(contentsOfFile: path(relative), encoding: .utf8)
    }
}

struct PackagingFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// What the packaging tests do in a temporary folder: install into it, list it.
extension TestSupport.TemporaryDirectory {
    func file(_ relative: String) -> String { path + "/" + relative }

    func write(_ text: String, to relative: String) throws {
        let target = file(relative)
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try text.write(toFile: target, atomically: false, encoding: .utf8)
    }

    /// Every file and symbolic link under the folder, as paths relative to it, sorted.
    func files() -> [String] {
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: path)
        while let relative = enumerator?.nextObject() as? String {
            let attributes = try? FileManager.default.attributesOfItem(atPath: file(relative))
            if attributes?[.type] as? FileAttributeType != .typeDirectory { found.append(relative) }
        }
        return found.sorted()
    }
}

/// What a finished command printed and how it ended.
struct CommandResult {
    var status: Int32
    var output: String
    var errors: String

    var succeeded: Bool { status == 0 }
    var transcript: String { "exit status \(status)\n--- stdout\n\(output)--- stderr\n\(errors)" }
}

enum Command {
    /// Where the system tools live on Debian; PATH may be a developer's.
    static let searchPath = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"]

    /// The path of a tool the tests need. A missing tool is a failure, not a skip:
    /// CI installs every one of them (`.ci/packages.txt`).
    static func tool(_ name: String, package: String) throws -> String {
        let environmentPath = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map(String.init) ?? []
        for folder in searchPath + environmentPath where FileManager.default.isExecutableFile(atPath: folder + "/" + name) {
            return folder + "/" + name
        }
        throw PackagingFailure("\(name) is missing: install the Debian package '\(package)' (listed in .ci/packages.txt)")
    }

    /// Runs a program to its end; its output goes through files, so neither stream can
    /// fill a pipe and stall it.
    static func run(_ executable: String, _ arguments: [String], in directory: String? = nil,
                    environment: [String: String] = [:]) throws -> CommandResult {
        let scratch = TemporaryDirectory()
        // Plain, untranslated, uncoloured output to parse; no pager.
        var variables: [String: String?] = [
            "LC_ALL": "C.UTF-8", "SYSTEMD_COLORS": "0", "SYSTEMD_PAGER": "", "MAKEFLAGS": nil, "MFLAGS": nil,
        ]
        for (key, value) in environment { variables[key] = value }
        let process = try ChildProcess([executable] + arguments, environment: variables, directory: directory,
                                       standardInput: .null, standardOutput: .file(scratch.file("out")),
                                       standardError: .file(scratch.file("err")), otherDescriptors: .closed)
        let status = process.wait()
        return CommandResult(status: status, output: try FileDescriptor.readText(scratch.file("out"), limit: 64 << 20),
                             errors: try FileDescriptor.readText(scratch.file("err"), limit: 64 << 20))
    }
}
