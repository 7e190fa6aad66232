// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import Testing
import TiltDaemon
import TiltGUI

/// debian/: the packages are `make install` split in two, so the lists of what goes in
/// each package must follow the Makefile (dh_missing fails a package build otherwise,
/// and these tests say so without one).
@Suite struct DebianPackageTests {
    /// The variables debian/rules passes to make (INSTALL_PATHS there).
    static let debianPaths = [
        "PREFIX": "/usr",
        "SYSTEMDUNITDIR": "/lib/systemd/system",
        "UDEVRULESDIR": "/lib/udev/rules.d",
        "UDEVHWDBDIR": "/lib/udev/hwdb.d",
    ]

    /// The entries of a debian/PACKAGE.install file: paths in debian/tmp, a directory
    /// taking everything under it.
    static func installList(_ package: String) throws -> [String] {
        try Repository.text("debian/\(package).install")
            .split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    static func covers(_ entry: String, _ file: String) -> Bool {
        file == entry || file.hasPrefix(entry.hasSuffix("/") ? entry : entry + "/")
    }

    @Test func everyInstalledFileGoesToExactlyOnePackage() throws {
        let destination = TemporaryDirectory()
        var variables = Self.debianPaths
        variables["DESTDIR"] = destination.path
        _ = try InstallTests.make("install", variables)
        let files = destination.files()
        #expect(files.contains("lib/systemd/system/tiltpuzzled.service"), "the units are where dh_installsystemd looks")
        #expect(files.contains("usr/share/man/man8/tiltpuzzled.8"))

        let lists = try ["tiltpuzzle", "tiltpuzzle-gui"].map { ($0, try Self.installList($0)) }
        for file in files {
            let owners = lists.filter { _, entries in entries.contains { Self.covers($0, file) } }.map(\.0)
            #expect(owners.count == 1, "\(file) is in \(owners.isEmpty ? "no package" : owners.joined(separator: " and "))")
        }
        for (package, entries) in lists {
            for entry in entries {
                #expect(files.contains { Self.covers(entry, $0) }, "debian/\(package).install: \(entry) is not installed")
            }
        }
        let gui = lists.first { $0.0 == "tiltpuzzle-gui" }?.1 ?? []
        #expect(gui == ["usr/bin/tiltpuzzle-gui", "usr/share/applications/\(AppIdentity.id).desktop", "usr/share/icons/hicolor",
                        "usr/share/metainfo/\(AppIdentity.id).metainfo.xml"],
                "the window and its desktop files, and only they, are in their own package (SDL)")
    }

    @Test func theChangelogIsAtTheProgramsVersion() throws {
        let first = try Repository.text("debian/changelog").split(separator: "\n").first ?? ""
        #expect(first.hasPrefix("tiltpuzzle (\(DaemonInfo.version)) "), "debian/changelog starts: \(first)")
    }
}
