// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltDaemon
import TiltSystem

/// The file as the daemon reads it at start and on SIGHUP, with the command line's overrides.
@Suite struct ConfigurationLoaderTests {
    /// A configuration file in a temporary folder, removed at the end of the test.
    final class File {
        let folder: TemporaryDirectory
        let path: String

        init(_ text: String) throws {
            folder = try TemporaryDirectory(prefix: "tiltpuzzle-test")
            path = folder.path + "/tiltpuzzled.conf"
            try write(text)
        }

        func write(_ text: String) throws {
            try FileDescriptor.replaceAtomically(path, with: Array(text.utf8))
        }

        deinit { folder.remove() }
    }

    static func options(_ arguments: [String]) throws -> DaemonOptions {
        try DaemonOptions(arguments: arguments, environment: ["HOME": "/nonexistent"])
    }

    @Test func theCommandLineOverridesTheFile() throws {
        let file = try File("[sensor]\nsource = none\nalways-on = false\n[game]\ndefault-size = 3\n")
        let loader = ConfigurationLoader(options: try Self.options(["--config", file.path, "--always-on",
                                                                    "--source", "replay:demo.csv"]), readsFile: true)
        let configuration = try loader.load()
        #expect(configuration.alwaysOn)
        #expect(configuration.source == "replay:demo.csv")
        #expect(configuration.defaultSize == 3)
    }

    /// The sensor's keys wait for a restart; the detector's, the game's and the clients' do not.
    @Test func aReloadTakesOnlyWhatCanChangeWhileRunning() throws {
        let file = try File("[sensor]\nsample-rate = 200\n")
        let loader = ConfigurationLoader(options: try Self.options(["--config", file.path]), readsFile: true)
        let started = try loader.load()
        try file.write("[sensor]\nsample-rate = 50\nalways-on = true\n[detector]\ntrigger-angle = 30\n"
                       + "[game]\nundo-levels = 7\n[clients]\nmax-clients = 3\n")
        let reloaded = try loader.reload(started)
        #expect(reloaded.sampleRate == 200)
        #expect(!reloaded.alwaysOn)
        #expect(reloaded.detector.triggerAngle == 30)
        #expect(reloaded.undoLevels == 7)
        #expect(reloaded.limits.maxClients == 3)
    }

    @Test func aNamedFileThatIsMissingIsAnErrorNamingIt() throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        defer { folder.remove() }
        let path = folder.path + "/missing.conf"
        let loader = ConfigurationLoader(options: try Self.options(["--config", path]), readsFile: true)
        #expect { try loader.load() } throws: { error in
            (error as? Daemon.StartError)?.message.hasPrefix("cannot read configuration \(path)") == true
        }
    }

    /// A daemon embedded in another program reads no file, not even a named one.
    @Test func withoutTheFileItIsTheDefaultsAndTheCommandLine() throws {
        let file = try File("[game]\ndefault-size = 3\n")
        let loader = ConfigurationLoader(options: try Self.options(["--config", file.path, "--source", "none"]),
                                         readsFile: false)
        var expected = Configuration()
        expected.source = "none"
        #expect(try loader.load() == expected)
    }
}
