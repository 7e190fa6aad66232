// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import Testing
import TiltClient
import TiltDaemon

/// The service and socket units: what systemd-analyze says of them as installed, and
/// the settings the daemon, the client and the udev rules count on.
@Suite struct SystemdUnitTests {
    /// The group the udev rules, the socket and the service share.
    static let group = "tiltpuzzle"

    /// The units as `make install` writes them, with PREFIX in a temporary folder so
    /// that ExecStart names a real executable (verify checks it), the built daemon.
    static func installUnits(in directory: TemporaryDirectory) throws -> (service: String, socket: String) {
        _ = try InstallTests.make("install", ["PREFIX": directory.file("usr"), "SYSCONFDIR": directory.file("etc")])
        let units = directory.file("usr/lib/systemd/system/")
        return (units + "tiltpuzzled.service", units + "tiltpuzzled.socket")
    }

    static func analyze(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        try Command.run(try Command.tool("systemd-analyze", package: "systemd"), arguments, environment: environment)
    }

    /// The overall exposure `systemd-analyze security` gives a unit file, read off its
    /// last line ("→ Overall exposure level for NAME: 1.0 OK 🙂"); 0 is best, 10 worst.
    static func exposure(of unitFile: String) throws -> (exposure: Double, result: CommandResult) {
        let result = try analyze(["security", "--offline=true", "--no-pager", unitFile])
        let marker = "Overall exposure level for "
        // "NAME: 0.9 SAFE 😀", or "NAME: 0.9 SAFE :-}" where the terminal cannot show
        // the face (TERM unset): the number follows the first colon after the name.
        guard let line = result.output.split(separator: "\n").last(where: { $0.contains(marker) }),
              let named = line.range(of: marker).map({ line[$0.upperBound...] }),
              let colon = named.range(of: ": "),
              let number = named[colon.upperBound...].split(separator: " ").first,
              let exposure = Double(number) else {
            throw PackagingFailure("no overall exposure in the output:\n\(result.transcript)")
        }
        return (exposure, result)
    }

    @Test func verifyHasNothingToSay() throws {
        let directory = TemporaryDirectory()
        let units = try Self.installUnits(in: directory)
        // verify runs `man` on each man: page in Documentation=; the ones installed
        // with the units must be what it finds.
        let result = try Self.analyze(["verify", units.service, units.socket],
                                      environment: ["MANPATH": directory.file("usr/share/man")])
        // No filter: on Debian 12 a clean unit gives no output at all.
        #expect(result.succeeded, "\(result.transcript)")
        #expect(result.output.isEmpty && result.errors.isEmpty, "\(result.transcript)")
    }

    @Test func verifyCatchesABrokenUnit() throws {
        // The check above can fail: a misspelt setting and a missing program are reported.
        let directory = TemporaryDirectory()
        try "[Service]\nType=notfy\nExecStart=\(directory.file("missing"))\n".write(
            toFile: directory.file("broken.service"), atomically: false, encoding: .utf8)
        let result = try Self.analyze(["verify", directory.file("broken.service")])
        #expect(!result.succeeded || !(result.output + result.errors).isEmpty)
        #expect((result.output + result.errors).contains("missing"), "\(result.transcript)")
    }

    @Test func exposureIsAtMostTwo() throws {
        let directory = TemporaryDirectory()
        let units = try Self.installUnits(in: directory)
        let (exposure, result) = try Self.exposure(of: units.service)
        #expect(result.succeeded, "\(result.transcript)")
        #expect(exposure <= 2.0, "exposure \(exposure):\n\(result.output)")
        // systemd's own bound, on its 0–100 scale: exit status 1 above 20.
        let bounded = try Self.analyze(["security", "--offline=true", "--threshold=20", "--no-pager", units.service])
        #expect(bounded.succeeded, "\(bounded.transcript)")
    }

    @Test func anUnhardenedServiceIsOverTheBound() throws {
        // The measure can fail: a service without hardening rates far above 2.0.
        let directory = TemporaryDirectory()
        try "[Service]\nExecStart=/bin/true\n".write(toFile: directory.file("bare.service"), atomically: false, encoding: .utf8)
        let (exposure, _) = try Self.exposure(of: directory.file("bare.service"))
        #expect(exposure > 2.0)
        let bounded = try Self.analyze(["security", "--offline=true", "--threshold=20", "--no-pager",
                                        directory.file("bare.service")])
        #expect(!bounded.succeeded)
    }

    @Test func serviceGivesTheDaemonWhatItNeedsAndNoMore() throws {
        let service = UnitFile(try Repository.text("systemd/tiltpuzzled.service"))
        #expect(service.value("Service", "Type") == "notify")
        #expect(service.value("Service", "NotifyAccess") == "main")
        #expect(service.value("Service", "ExecStart") == "@bindir@/tiltpuzzled")
        #expect(service.value("Service", "ExecReload")?.hasSuffix("-HUP $MAINPID") == true)
        #expect(service.value("Service", "WatchdogSec") != nil)
        #expect(service.values("Unit", "Requires").contains("tiltpuzzled.socket"))
        #expect(service.values("Unit", "After").contains("tiltpuzzled.socket"))

        #expect(service.value("Service", "User") == Self.group)
        #expect(service.value("Service", "Group") == Self.group)
        #expect(service.value("Service", "DynamicUser") == nil)
        #expect(service.value("Service", "DevicePolicy") == "closed")
        #expect(service.values("Service", "DeviceAllow") == ["char-iio rw", "char-input r"])
        // char-iio exists only once industrialio is loaded: loaded before the service
        // starts, whichever comes first at boot, the service or the sensor's driver.
        #expect(service.values("Unit", "Wants").contains("modprobe@industrialio.service"))
        #expect(service.values("Unit", "After").contains("modprobe@industrialio.service"))
        #expect(service.value("Service", "PrivateDevices") != "yes", "the accelerometer nodes must be visible")
        #expect(service.value("Service", "RestrictAddressFamilies") == "AF_UNIX AF_NETLINK")
        #expect(service.value("Service", "PrivateNetwork") != "yes", "udev's broadcasts stay in the host's network namespace")
        #expect(service.value("Service", "CapabilityBoundingSet") == "")
        // /sys is read-only but for /sys/devices, where the IIO attributes are written.
        #expect(service.value("Service", "ProtectKernelTunables") == "yes")
        #expect(service.values("Service", "ReadWritePaths").contains("/sys/devices"))

        // The directories the daemon finds through its environment and defaults.
        let state = try #require(service.value("Service", "StateDirectory"))
        #expect(DaemonOptions.defaultStateDirectory(["STATE_DIRECTORY": "/var/lib/" + state]) == "/var/lib/tiltpuzzle")
        let configuration = try #require(service.value("Service", "ConfigurationDirectory"))
        #expect("/etc/\(configuration)/tiltpuzzled.conf" == Configuration.defaultPath)
        let runtime = try #require(service.value("Service", "RuntimeDirectory"))
        #expect(service.value("Service", "RuntimeDirectoryPreserve") == "yes", "the socket unit's socket lives in it")

        let socket = UnitFile(try Repository.text("systemd/tiltpuzzled.socket"))
        #expect(socket.value("Socket", "ListenStream") == DaemonOptions.defaultSocketPath(["RUNTIME_DIRECTORY": "/run/" + runtime]))
    }

    @Test func socketIsWhereClientsLookAndOnlyTheGroupMayConnect() throws {
        let socket = UnitFile(try Repository.text("systemd/tiltpuzzled.socket"))
        let path = try #require(socket.value("Socket", "ListenStream"))
        #expect(path == DaemonConnection.systemSocket)
        #expect(path == DaemonOptions.defaultSocketPath([:]))
        #expect(socket.value("Socket", "SocketMode") == "0660")
        #expect(socket.value("Socket", "SocketGroup") == Self.group)
        #expect(socket.value("Socket", "RemoveOnStop") == "yes")
        #expect(socket.value("Install", "WantedBy") == "sockets.target")
    }

    @Test func sysusersCreatesTheSystemUserAndItsGroup() throws {
        let sysusers = try Command.tool("systemd-sysusers", package: "systemd")
        let root = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: root.file("etc"), withIntermediateDirectories: true)
        let result = try Command.run(sysusers, ["--root=" + root.path, Repository.path("systemd/tiltpuzzle.sysusers")])
        #expect(result.succeeded, "\(result.transcript)")
        let passwd = try String(contentsOfFile: root.file("etc/passwd"), encoding: .utf8)
        let group = try String(contentsOfFile: root.file("etc/group"), encoding: .utf8)
        let user = try #require(passwd.split(separator: "\n").first { $0.hasPrefix(Self.group + ":") }?
            .split(separator: ":", omittingEmptySubsequences: false))
        let groupEntry = try #require(group.split(separator: "\n").first { $0.hasPrefix(Self.group + ":") }?
            .split(separator: ":", omittingEmptySubsequences: false))
        #expect(user.count == 7 && groupEntry.count == 4)
        let uid = try #require(Int(user[2]))
        #expect(uid > 0 && uid < 1000, "a system user")
        #expect(user[3] == groupEntry[2], "its primary group is tiltpuzzle")
        #expect(user[5] == "/var/lib/tiltpuzzle")
        #expect(user[6].hasSuffix("nologin"))
    }
}
