// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import Testing

/// `make install` and `make uninstall`, staged with DESTDIR. The binaries come from
/// this build (BUILDDIR), so the tests compile nothing more; the man pages are made
/// in a folder of each call's own (MANBUILDDIR), so parallel tests never share one.
@Suite struct InstallTests {
    static func make(_ target: String, _ variables: [String: String]) throws -> CommandResult {
        let make = try Command.tool("make", package: "make")
        _ = try Command.tool("go-md2man", package: "go-md2man")
        let manBuild = TemporaryDirectory()
        let catalogBuild = TemporaryDirectory()
        var all = variables
        all["MOBUILDDIR"] = catalogBuild.path
        let desktopBuild = TemporaryDirectory()
        all["DESKTOPBUILDDIR"] = desktopBuild.path
        all["BUILDDIR"] = BuiltProducts.directory.path
        all["MANBUILDDIR"] = manBuild.path
        let assignments = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let result = try Command.run(make, ["-C", Repository.root.path, target] + assignments)
        guard result.succeeded else { throw PackagingFailure("make \(target) failed:\n\(result.transcript)") }
        return result
    }

    /// What `make install PREFIX=<prefix>` puts where, with its mode.
    static func expectedFiles(prefix: String) -> [String: Int] {
        let p = String(prefix.dropFirst())
        return [
            "etc/tiltpuzzle/tiltpuzzled.conf": 0o644,
            "\(p)/bin/tiltpuzzle": 0o755,
            "\(p)/bin/tiltpuzzled": 0o755,
            "\(p)/bin/tiltpuzzle-gui": 0o755,
            "\(p)/lib/systemd/system/tiltpuzzled.service": 0o644,
            "\(p)/lib/systemd/system/tiltpuzzled.socket": 0o644,
            "\(p)/lib/sysusers.d/tiltpuzzle.conf": 0o644,
            "\(p)/lib/udev/hwdb.d/61-tiltpuzzle-controllers.hwdb": 0o644,
            "\(p)/lib/udev/rules.d/70-tiltpuzzle.rules": 0o644,
            "\(p)/share/doc/tiltpuzzle/README.md": 0o644,
            "\(p)/share/doc/tiltpuzzle/gui.md": 0o644,
            "\(p)/share/doc/tiltpuzzle/tiltpuzzle.1.md": 0o644,
            "\(p)/share/doc/tiltpuzzle/tiltpuzzled.8.md": 0o644,
            "\(p)/share/doc/tiltpuzzle/tiltpuzzled.conf": 0o644,
            "\(p)/share/man/man1/tiltpuzzle.1": 0o644,
            "\(p)/share/man/man5/tiltpuzzled.conf.5": 0o644,
            "\(p)/share/man/man8/tiltpuzzled.8": 0o644,
        ].merging(DesktopEntryTests.installedFiles(prefix: p)) { a, _ in a }
            .merging(languages.map { ("\(p)/share/locale/\($0)/LC_MESSAGES/tiltpuzzle.mo", 0o644) }) { a, _ in a }
    }

    /// The languages of po/LINGUAS, each installed as its compiled catalog.
    static var languages: [String] {
        ((try? Repository.text("po/LINGUAS")) ?? "").split(separator: "\n")
            .filter { !$0.hasPrefix("#") }.flatMap { $0.split(separator: " ").map(String.init) }
    }

    static func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int
    }

    @Test(arguments: ["/usr", nil] as [String?])
    func installsExactlyTheFilesAndUninstallRemovesThem(prefix: String?) throws {
        let destination = TemporaryDirectory()
        var variables = ["DESTDIR": destination.path]
        if let prefix { variables["PREFIX"] = prefix }
        let effectivePrefix = prefix ?? "/usr/local"
        _ = try Self.make("install", variables)

        let expected = Self.expectedFiles(prefix: effectivePrefix)
        #expect(destination.files() == expected.keys.sorted())
        for (file, mode) in expected {
            #expect(Self.mode(destination.file(file)) == mode, "\(file)")
        }

        let bin = String(effectivePrefix.dropFirst()) + "/bin/"
        for program in ["tiltpuzzled", "tiltpuzzle", "tiltpuzzle-gui"] {
            let installed = FileManager.default.contents(atPath: destination.file(bin + program))
            let built = FileManager.default.contents(atPath: BuiltProducts.url(program).path)
            #expect(installed != nil && installed == built, "\(program) is the built one")
        }
        let units = String(effectivePrefix.dropFirst()) + "/lib/systemd/system/"
        for unit in ["tiltpuzzled.service", "tiltpuzzled.socket"] {
            let installed = try String(contentsOfFile: destination.file(units + unit), encoding: .utf8)
            let source = try Repository.text("systemd/" + unit)
            #expect(installed.range(of: "@[a-z]+@", options: .regularExpression) == nil, "\(unit): a placeholder is left")
            let substituted = source
                .replacingOccurrences(of: "@bindir@", with: effectivePrefix + "/bin")
                .replacingOccurrences(of: "@docdir@", with: effectivePrefix + "/share/doc/tiltpuzzle")
            #expect(installed == substituted, "\(unit) is the source with its paths filled in")
        }
        let service = try String(contentsOfFile: destination.file(units + "tiltpuzzled.service"), encoding: .utf8)
        #expect(service.contains("\nExecStart=\(effectivePrefix)/bin/tiltpuzzled\n"))
        #expect(FileManager.default.contents(atPath: destination.file("etc/tiltpuzzle/tiltpuzzled.conf"))
                == FileManager.default.contents(atPath: Repository.path("docs/tiltpuzzled.conf")))

        _ = try Self.make("uninstall", variables)
        #expect(destination.files() == [], "uninstall leaves nothing behind")
    }

    @Test func keepsAnEditedConfiguration() throws {
        let destination = TemporaryDirectory()
        let variables = ["DESTDIR": destination.path, "PREFIX": "/usr"]
        _ = try Self.make("install", variables)
        let edited = "[game]\ndefault-size = 3\n"
        try edited.write(toFile: destination.file("etc/tiltpuzzle/tiltpuzzled.conf"), atomically: false, encoding: .utf8)

        _ = try Self.make("install", variables)
        #expect(try String(contentsOfFile: destination.file("etc/tiltpuzzle/tiltpuzzled.conf"), encoding: .utf8) == edited,
                "a reinstall keeps the administrator's configuration")
        _ = try Self.make("uninstall", variables)
        #expect(destination.files() == ["etc/tiltpuzzle/tiltpuzzled.conf"], "only the edited configuration stays")
    }
}
