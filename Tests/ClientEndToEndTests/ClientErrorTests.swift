// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import TiltSystem
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What the client says, and exits with, when it cannot do what was asked.
struct ClientErrorTests {
    @Test func noDaemonNamesTheSocketAndHowToStartOne() throws {
        let directory = TemporaryDirectory()
        let socket = directory.path + "/nothing-here.sock"
        let result = try Client.run(["--socket", socket, "status"])
        #expect(result.status == 69)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("no tiltpuzzled is running (tried \(socket))"))
        #expect(result.stderr.contains("Start one there with 'tiltpuzzled --socket \(socket)'"))
        #expect(!result.stderr.contains("systemctl"), "systemd starts only the system socket")
    }

    /// connect() says "refused" for a file or a folder: the client says what is there.
    @Test(arguments: [("file", "a regular file"), ("folder", "a directory")])
    func aPathThatIsNoSocketIsSaidToBeNone(name: String, kind: String) throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/" + name
        if name == "folder" {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        } else {
            try "".write(toFile: path, atomically: true, encoding: .utf8)
        }
        let result = try Client.run(["--socket", path, "status"])
        #expect(result.status == 69)
        #expect(result.stderrLines.first == "tiltpuzzle: \(path) is not a socket but \(kind): no daemon can listen there.")
        #expect(!result.stderr.contains("no tiltpuzzled is running") && !result.stderr.contains("systemctl"))
    }

    /// A daemon at its client limit greets, says why and closes: the client reports
    /// the reason as a refusal, whether or not its request was written before the close.
    @Test func aDaemonAtItsClientLimitIsARefusalWithTheReason() throws {
        let directory = TemporaryDirectory()
        let config = directory.path + "/one.conf"
        try "[clients]\nmax-clients = 1\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(directory: directory, arguments: ["--source", "none", "--config", config])
        // The daemon may not have seen yet that the start-up probe's connection left.
        var attached: TestClient?
        for _ in 0..<100 where attached == nil {
            let client = try TestClient(path: daemon.socketPath)
            if client.greeting() != nil { attached = client } else { usleep(20_000) }
        }
        #expect(attached != nil)
        for command in [["tilt", "up"], ["status"]] {
            let result = try Client.run(command, on: daemon)
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr == "tiltpuzzle: the daemon serves at most 1 clients (too-many-clients)\n", "\(command)")
        }
    }

    /// Without --socket or TILTPUZZLE_SOCKET: the user's runtime folder, then the system socket.
    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/run/tiltpuzzle/tiltpuzzled.sock"),
                   "a system daemon is running here"))
    func noDaemonTriesTheDefaultSockets() throws {
        let directory = TemporaryDirectory()
        let result = try Client.run(["tilt", "up"], environment: ["XDG_RUNTIME_DIR": directory.path])
        #expect(result.status == 69)
        #expect(result.stderr.contains("tried \(directory.path)/tiltpuzzle/tiltpuzzled.sock, /run/tiltpuzzle/tiltpuzzled.sock"))
        #expect(result.stderr.contains("systemctl start tiltpuzzled.socket"), "the system socket is systemd's")
    }

    /// A bare `tiltpuzzle` says a command is missing and which there are.
    @Test func noCommandListsTheCommands() throws {
        let result = try Client.run(["--socket", "/nonexistent/d.sock"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.first == "tiltpuzzle: no command given")
        #expect(result.stderrLines.dropFirst().first == "Commands:")
        #expect(result.stderrLines.contains { $0.hasPrefix("  status ") } && result.stderrLines.contains { $0.hasPrefix("  demo ") })
        #expect(result.stderrLines.last == "(see 'tiltpuzzle --help')")
    }

    /// One line that says what is wrong, one with where to look; status 64.
    @Test(arguments: [
        (["tilt", "sideways"], "tiltpuzzle: DIRECTION must be up, down, left or right, not 'sideways'"),
        (["move", "x", "up"], "tiltpuzzle: TILE must be a tile's number as on screen, from 1, not 'x'"),
        (["move", "-1", "up"], "tiltpuzzle: TILE must be a tile's number as on screen, from 1, not '-1'"),
        (["slide", "--cell", "-1"], "tiltpuzzle: with --cell, TILE must be a cell index from 0, not '-1'"),
        (["configure", "--trigger", "nan"], "tiltpuzzle: --trigger expects a number of degrees, not 'nan'"),
        (["help", "bogus"], "tiltpuzzle: no help on 'bogus': it is not a command"),
        (["status", "--version"], "tiltpuzzle: --version goes before the command: tiltpuzzle --version"),
        (["new", "--size", "11"], "tiltpuzzle: --size expects a side from 2 to 10, not '11'"),
        (["demo", "--speed", "fast"], "tiltpuzzle: --speed expects a positive number, not 'fast'"),
        (["tilt"], "tiltpuzzle: 'tilt' needs DIRECTION"),
        (["status", "--jsn"], "tiltpuzzle: unknown option '--jsn' for 'status'"),
        (["frobnicate"], "tiltpuzzle: unknown command 'frobnicate'"),
        (["--bogus", "status"], "tiltpuzzle: unknown option '--bogus' for 'tiltpuzzle'"),
    ])
    func aBadArgumentIsOneClearLineAndAHint(arguments: [String], message: String) throws {
        // No daemon is needed to find a usage mistake: the socket does not exist.
        let result = try Client.run(["--socket", "/nonexistent/d.sock"] + arguments)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 2)
        #expect(result.stderrLines.first == message)
        #expect(result.stderrLines.last?.hasPrefix("(see 'tiltpuzzle") == true)
        #expect(result.stderrLines.last?.contains("tiltpuzzle tiltpuzzle") == false, "the program named once")
    }

    /// A socket the user may not open: root's, mode 0600, the client run as nobody.
    @Test(.enabled(if: Unprivileged.isAvailable, "needs root to run the client as another user"))
    func aSocketWithoutPermissionSaysWhichGroupToJoin() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        #expect(chmod(daemon.socketPath, 0o600) == 0)
        let client = try Unprivileged.command("tiltpuzzle", in: directory)
        let result = try Client.run(["--socket", daemon.socketPath, "status"],
                                    prefix: client.launcher, executable: client.executable)
        #expect(result.status == 77)
        #expect(result.stderr.contains("permission denied on \(daemon.socketPath)"))
        #expect(result.stderr.contains("Join the 'tiltpuzzle' group"))
    }

    @Test func theEnvironmentNamesTheSocketAndSocketOptionWins() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        let fromEnvironment = try Client.run(["status"], environment: ["TILTPUZZLE_SOCKET": daemon.socketPath])
        #expect(fromEnvironment.status == 0)
        #expect(fromEnvironment.stdout.contains("at \(daemon.socketPath)"))
        let overridden = try Client.run(["--socket", daemon.socketPath, "status"],
                                        environment: ["TILTPUZZLE_SOCKET": directory.path + "/wrong.sock"])
        #expect(overridden.status == 0)
        let wrong = try Client.run(["--socket", directory.path + "/wrong.sock", "status"],
                                   environment: ["TILTPUZZLE_SOCKET": daemon.socketPath])
        #expect(wrong.status == 69)
        #expect(wrong.stderr.contains("wrong.sock"))
    }

    /// docs/client.md, "Exit statuses": what the client can check is a usage error before
    /// it connects; a missing input file is 66, not "no daemon".
    @Test func oneRuleForExitStatuses() throws {
        let empty = try Client.run(["--socket", "", "status"])
        #expect(empty.status == 64)
        #expect(empty.stderrLines.first == "tiltpuzzle: --socket needs a path, not ''")
        let directory = TemporaryDirectory()
        let missing = try Client.run(["record", "--source", "replay:" + directory.path + "/missing.csv", "--output", directory.path + "/out.csv"])
        #expect(missing.status == 66)
        #expect(missing.stderr.hasPrefix("tiltpuzzle: cannot read the trace \(directory.path)/missing.csv"))
        let daemon = try DaemonProcess(directory: directory)
        // A global option after the command works there.
        let after = try Client.run(["status", "--socket", daemon.socketPath])
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stdout.contains("at \(daemon.socketPath)"))
    }

    @Test func theDaemonsHintNamesItOnce() throws {
        let process = try ChildProcess([BuiltProducts.url("tiltpuzzled").path, "--bogus"],
                                       standardOutput: .discard, standardError: .pipe, otherDescriptors: .closed)
        let text = String(decoding: process.readPipes().errors, as: UTF8.self)
        #expect(process.wait() == 64)
        #expect(text.contains("(see 'tiltpuzzled --help')"), "\(text)")
    }

    @Test func playNeedsATerminal() throws {
        let result = try Client.run(["--socket", "/nonexistent/d.sock", "play"])
        #expect(result.status == 64)
        #expect(result.stderrLines == ["tiltpuzzle: play needs a terminal for its keys and screen",
                                       "(to follow the game from a script or a pipe, use 'tiltpuzzle watch')"])
    }

    @Test func helpForTheProgramAndEveryCommand() throws {
        let program = try Client.run(["--help"])
        #expect(program.status == 0)
        let table = program.stdoutLines.drop { $0 != "Commands:" }.dropFirst().prefix { $0.hasPrefix("  ") }
            .filter { !$0.hasPrefix("   ") }  // a wrapped summary's next line
        let commands = table.compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(Set(["status", "watch", "play", "tilt", "move", "slide", "undo", "redo", "new", "calibrate", "demo"])
            .isSubset(of: commands))
        for command in commands {
            let help = try Client.run([command, "--help"])
            #expect(help.status == 0, "\(command)")
            #expect(help.stdout.contains("Usage: tiltpuzzle \(command)"), "\(command)")
            #expect(try Client.run(["help", command]).stdout == help.stdout, "\(command)")
            for line in help.stdoutLines { #expect(line.count <= 80, "\(command): wider than a terminal: \(line)") }
        }
        // Wrapped at word boundaries, not where the source broke its lines.
        let demo = try Client.run(["demo", "--help"])
        #expect(demo.stdoutLines.contains { $0.contains("(near-shortest from 5×5 up)") }, "\(demo.stdout)")
        for line in program.stdoutLines { #expect(line.count <= 80, "wider than a terminal: \(line)") }
        let play = try Client.run(["play", "--help"])
        for key in ["arrow key", "u undoes", "r redoes", "n starts a new game", "c calibrates", "q quits"] {
            #expect(play.stdout.replacingOccurrences(of: "\n", with: " ").contains(key), "\(key)")
        }
    }
}
