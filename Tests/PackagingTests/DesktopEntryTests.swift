// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import Testing
import TiltGUI

/// The graphical board on the desktop: the entry that puts it in the app grid, its
/// icon, its AppStream description. Checked as installed, by the validators the
/// desktops and software centres follow.
@Suite struct DesktopEntryTests {
    static let id = AppIdentity.id
    static let iconSizes = [48, 64, 128, 256]

    /// What `make install` adds for the desktop, relative to `prefix` without its slash.
    static func installedFiles(prefix p: String) -> [String: Int] {
        var files = [
            "\(p)/share/applications/\(id).desktop": 0o644,
            "\(p)/share/metainfo/\(id).metainfo.xml": 0o644,
            "\(p)/share/icons/hicolor/scalable/apps/\(id).svg": 0o644,
        ]
        for size in iconSizes { files["\(p)/share/icons/hicolor/\(size)x\(size)/apps/\(id).png"] = 0o644 }
        return files
    }

    static func installed() throws -> TemporaryDirectory {
        let destination = TemporaryDirectory()
        _ = try InstallTests.make("install", ["DESTDIR": destination.path, "PREFIX": "/usr"])
        return destination
    }

    /// The `key=value` lines of the entry's [Desktop Entry] group.
    static func entry(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("[") && !line.hasPrefix("#") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            result[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return result
    }

    @Test func theDesktopEntryValidatesAndStartsTheBoard() throws {
        let destination = try Self.installed()
        let path = destination.file("usr/share/applications/\(Self.id).desktop")
        let validator = try Command.tool("desktop-file-validate", package: "desktop-file-utils")
        let result = try Command.run(validator, [path])
        #expect(result.succeeded && result.output.isEmpty && result.errors.isEmpty,
                "desktop-file-validate: \(result.transcript)")

        let entry = Self.entry(try String(contentsOfFile: path, encoding: .utf8))
        #expect(entry["Type"] == "Application")
        #expect(entry["Terminal"] == "false")
        #expect(entry["Icon"] == Self.id, "the icon is named by the id")
        #expect(entry["StartupWMClass"] == Self.id, "the window's X11 class is the id")
        #expect(entry["Categories"]?.split(separator: ";").contains("LogicGame") == true, "\(entry["Categories"] ?? "")")
        #expect(entry["Keywords"]?.contains("puzzle") == true)
        // Each language of po/ merged in from its catalog, as the software centres show it.
        for language in InstallTests.languages {
            for key in ["Name", "GenericName", "Comment", "Keywords"] {
                #expect(entry["\(key)[\(language)]"].map { !$0.isEmpty && $0 != entry[key] } == true, "\(key)[\(language)]")
            }
        }
        #expect(entry["Name[de]"] == "Kipp-Puzzle")
        let program = entry["Exec"]?.split(separator: " ").first.map(String.init) ?? ""
        #expect(FileManager.default.isExecutableFile(atPath: destination.file("usr/bin/\(program)")),
                "Exec names \(program), which make install puts in the bin folder")
    }

    @Test func theMetainfoValidatesAndNamesTheEntryAndScreenshots() throws {
        let destination = try Self.installed()
        let path = destination.file("usr/share/metainfo/\(Self.id).metainfo.xml")
        let appstream = try Command.tool("appstreamcli", package: "appstream")
        let result = try Command.run(appstream, ["validate", "--no-net", "--no-color", path])
        let complaints = (result.output + result.errors).split(separator: "\n").filter {
            $0.hasPrefix("E:") || $0.hasPrefix("W:") || $0.hasPrefix("I:")
        }
        #expect(result.succeeded && complaints.isEmpty, "appstreamcli validate: \(result.transcript)")

        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("<id>\(Self.id)</id>"))
        #expect(text.contains("<launchable type=\"desktop-id\">\(Self.id).desktop</launchable>"))
        #expect(text.contains("<content_rating type=\"oars-1.1\""))
        // The summary and the description in each language of po/.
        for language in InstallTests.languages {
            #expect(text.contains("<summary xml:lang=\"\(language)\">"), "summary in \(language)")
            #expect(text.contains("<p xml:lang=\"\(language)\">"), "description in \(language)")
        }
        #expect(text.contains("<summary xml:lang=\"ru\">Пятнашки, в которые играют, наклоняя планшет</summary>"))
        // Every screenshot it shows is one of the docs' pictures.
        let images = text.components(separatedBy: "<image>").dropFirst().compactMap { $0.components(separatedBy: "</image>").first }
        #expect(images.count >= 5, "\(images)")
        for image in images {
            let name = URL(string: image)?.lastPathComponent ?? image
            #expect(FileManager.default.fileExists(atPath: Repository.path("docs/images/\(name)")), "\(image) is in docs/images")
        }
    }

    /// A PNG's width and height, from its IHDR chunk.
    static func pngSize(_ data: Data) -> (Int, Int)? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
              bytes[12..<16] == [0x49, 0x48, 0x44, 0x52] else { return nil }
        let number = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    @Test func theIconIsInTheHicolorThemeAtItsSizes() throws {
        let destination = try Self.installed()
        let svg = try String(contentsOfFile: destination.file("usr/share/icons/hicolor/scalable/apps/\(Self.id).svg"),
                             encoding: .utf8)
        #expect(svg.contains("<svg") && svg.contains("viewBox"))
        for size in Self.iconSizes {
            let data = try Data(contentsOf: URL(fileURLWithPath: destination.file(
                "usr/share/icons/hicolor/\(size)x\(size)/apps/\(Self.id).png")))
            let found = Self.pngSize(data)
            #expect(found?.0 == size && found?.1 == size, "the \(size)x\(size) icon is \(String(describing: found))")
        }
    }
}
