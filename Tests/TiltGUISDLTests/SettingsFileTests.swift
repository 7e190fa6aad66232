// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltGUI
import TiltGUISDL
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// The settings file on disk: kept across restarts, a damaged one set aside, a failed
/// save one line and never the end of the window.
@Suite struct SettingsFileTests {
    final class Lines: @unchecked Sendable {
        var all: [String] = []
        func report(_ line: String) { all.append(line) }
    }

    static func files(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    @Test func whatIsSavedIsWhatTheNextStartLoads() throws {
        let home = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        defer { home.remove() }
        let file = SettingsFile(environment: ["XDG_CONFIG_HOME": home.path + "/config"])
        #expect(file.path == home.path + "/config/tiltpuzzle/gui.conf")
        let lines = Lines()
        #expect(file.load(report: lines.report) == .defaults, "no file yet")
        let settings = GUISettings(picture: .file("/home/ann/Pictures/Sea = blue 🌊.jpg"), numberCorners: .shown, sound: false)
        #expect(file.save(settings, report: lines.report))
        #expect(SettingsFile(environment: ["XDG_CONFIG_HOME": home.path + "/config"]).load(report: lines.report) == settings)
        #expect(lines.all.isEmpty, "\(lines.all)")
        var status = stat()
        #expect(stat(file.path!, &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(stat(home.path + "/config/tiltpuzzle", &status) == 0 && status.st_mode & 0o777 == 0o700)
        #expect(stat(home.path + "/config", &status) == 0 && status.st_mode & 0o777 == 0o700)
        #expect(Self.files(in: home.path + "/config/tiltpuzzle") == ["gui.conf"], "no temporary file left")
    }

    @Test func aDamagedFileIsMovedAsideWithOneLineAndTheDefaultsAreUsed() throws {
        let home = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        defer { home.remove() }
        let path = home.path + "/gui.conf"
        let damaged = Array("picture = numbers\nsound = loud\n".utf8)
        try FileDescriptor.replaceAtomically(path, with: damaged)
        let lines = Lines()
        #expect(SettingsFile(path: path).load(report: lines.report) == .defaults)
        let names = Self.files(in: home.path)
        #expect(names.count == 1 && names[0].hasPrefix("gui.conf.damaged-"), "\(names)")
        let aside = home.path + "/" + (names.first ?? "")
        #expect(try FileDescriptor.readAll(aside, limit: 1024) == damaged, "kept as it was, for the player to look at")
        #expect(lines.all == ["tiltpuzzle-gui: \(path) was damaged (line 2: sound is 'loud', not on or off); moved it to \(aside), using the defaults"])
        // The next save is not in its way, and the next start finds it.
        #expect(SettingsFile(path: path).save(GUISettings(sound: false), report: lines.report))
        #expect(SettingsFile(path: path).load(report: lines.report) == GUISettings(sound: false))
        #expect(lines.all.count == 1)
    }

    @Test func aFileTooLargeIsDamaged() throws {
        let home = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        defer { home.remove() }
        let path = home.path + "/gui.conf"
        try FileDescriptor.replaceAtomically(path, with: [UInt8](repeating: UInt8(ascii: "#"), count: 200_000))
        let lines = Lines()
        #expect(SettingsFile(path: path).load(report: lines.report) == .defaults)
        #expect(lines.all.count == 1 && lines.all[0].contains("was damaged (over 64 KiB); moved it to"), "\(lines.all)")
        #expect(access(path, F_OK) == -1)
    }

    @Test func anUnreadableFileIsLeftWhereItIs() throws {
        let home = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        defer { home.remove() }
        let path = home.path + "/gui.conf"
        #expect(mkdir(path, 0o700) == 0, "a folder where the file should be: it cannot be read")
        let lines = Lines()
        #expect(SettingsFile(path: path).load(report: lines.report) == .defaults)
        #expect(lines.all.count == 1 && lines.all[0].hasPrefix("tiltpuzzle-gui: cannot read \(path) ("), "\(lines.all)")
        #expect(Self.files(in: home.path) == ["gui.conf"])
    }

    @Test func aFailedSaveIsOneLineAndNotFatal() throws {
        let home = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        defer { home.remove() }
        let lines = Lines()
        // A plain file where the folder should be: nothing can be made below it.
        try FileDescriptor.replaceAtomically(home.path + "/config", with: [])
        let file = SettingsFile(environment: ["XDG_CONFIG_HOME": home.path + "/config"])
        #expect(!file.save(.defaults, report: lines.report))
        #expect(lines.all.count == 1 && lines.all[0].hasPrefix("tiltpuzzle-gui: cannot save the settings to \(file.path!) ("),
                "\(lines.all)")
    }

    @Test func withoutAConfigHomeNothingIsKept() {
        let file = SettingsFile(environment: ["XDG_CONFIG_HOME": "relative"])
        let lines = Lines()
        #expect(file.path == nil)
        #expect(file.load(report: lines.report) == .defaults)
        #expect(!file.save(GUISettings(sound: false), report: lines.report))
        #expect(lines.all.isEmpty)
    }
}
