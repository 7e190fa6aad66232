import Foundation
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

/// The folder of the built executables: the test bundle is built next to them.
enum BuiltProducts {
    static let directory: String = {
        var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        while !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("tiltpuzzled").path),
              folder.path != "/" {
            folder = folder.deletingLastPathComponent()
        }
        return folder.path
    }()
}

struct PackagingFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A temporary folder, removed with everything in it when released.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = "/tmp/tp-packaging-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

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

    deinit { try? FileManager.default.removeItem(atPath: path) }
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
        let scratch = try TemporaryDirectory()
        for name in ["out", "err"] where !FileManager.default.createFile(atPath: scratch.file(name), contents: nil) {
            throw PackagingFailure("cannot create \(scratch.file(name))")
        }
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.file("out")))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.file("err")))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        var env = ProcessInfo.processInfo.environment
        // Plain, untranslated, uncoloured output to parse; no pager.
        env["LC_ALL"] = "C.UTF-8"
        env["SYSTEMD_COLORS"] = "0"
        env["SYSTEMD_PAGER"] = ""
        env["MAKEFLAGS"] = nil
        env["MFLAGS"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return CommandResult(status: process.terminationStatus,
                             output: try String(contentsOfFile: scratch.file("out"), encoding: .utf8),
                             errors: try String(contentsOfFile: scratch.file("err"), encoding: .utf8))
    }
}
