// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Runs `udevadm test` on a fake device (umockdev) with our rules installed, without
/// touching the machine: in a private mount namespace, /run (where udevadm looks for
/// rules and writes its database), /etc/udev/rules.d (local rules) and /dev (where it
/// makes symlinks) are empty tmpfs (and /etc/udev all of it when our hwdb files are
/// compiled there), our rules are in /run/udev/rules.d, and /etc/group
/// has the group "tiltpuzzle", since udev resolves GROUP= when it reads the rules.
enum UdevSandbox {
    /// The gid the sandbox gives the group "tiltpuzzle".
    static let gid = 990

    /// $1 scratch folder, $2 rules file, then the command.
    static let script = #"""
        set -e
        scratch=$1 rules=$2
        shift 2
        mount -t tmpfs tmpfs /run
        mkdir -p /run/udev/rules.d
        cp "$rules" /run/udev/rules.d/
        if [ -d /etc/udev/rules.d ]; then mount -t tmpfs tmpfs /etc/udev/rules.d; fi
        # Our hwdb files, when given, compiled with the system's into /etc/udev/hwdb.bin
        # (which udev reads before the system's own), on a tmpfs of the sandbox's.
        if [ -d "$scratch/hwdb.d" ]; then
            if [ -f /etc/udev/udev.conf ]; then cp /etc/udev/udev.conf "$scratch/udev.conf"; fi
            mount -t tmpfs tmpfs /etc/udev
            mkdir /etc/udev/rules.d
            if [ -f "$scratch/udev.conf" ]; then cp "$scratch/udev.conf" /etc/udev/; fi
            cp -r "$scratch/hwdb.d" /etc/udev/hwdb.d
            systemd-hwdb update --strict
        fi
        { cat /etc/group; echo "tiltpuzzle:x:GID:"; } > "$scratch/group"
        mount --bind "$scratch/group" /etc/group
        # A /dev of our own: the few nodes programs expect, and ptys for umockdev.
        mkdir "$scratch/dev"
        mount --rbind /dev "$scratch/dev"
        mount -t tmpfs -o mode=0755 tmpfs /dev
        for node in null zero full random urandom tty; do
            touch "/dev/$node"
            mount --bind "$scratch/dev/$node" "/dev/$node"
        done
        mkdir /dev/pts
        mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts /dev/pts
        ln -s pts/ptmx /dev/ptmx
        exec "$@"
        """#.replacingOccurrences(of: "GID", with: String(gid))

    /// How to enter a mount namespace here: as root, a plain one (so file ownership is
    /// real); otherwise one in a user namespace. nil when neither is allowed (a
    /// container without the capability): the rules are then checked by parsing only.
    static let unshareArguments: [String]? = {
        guard let unshare = try? Command.tool("unshare", package: "util-linux") else { return nil }
        for arguments in [["--mount"], ["--mount", "--map-root-user"]] {
            let probe = TemporaryDirectory()
            guard FileManager.default.createFile(atPath: probe.file("probe.rules"), contents: Data()) else { continue }
            let result = try? Command.run(unshare, arguments + ["/bin/sh", "-c", script, "sh", probe.path,
                                                                 probe.file("probe.rules"), "true"])
            if result?.succeeded == true { return arguments }
        }
        return nil
    }()

    static var available: Bool { unshareArguments != nil }

    /// Whether ownership changes inside the sandbox are real (no user namespace).
    static var ownsFiles: Bool { unshareArguments == ["--mount"] && getuid() == 0 }

    /// What `udevadm test --action=add` printed for the device `fixture` describes (a
    /// file in Tests/Fixtures/udev), with `rules` as the only local rules file. With
    /// `executeRun`, the RUN programs are then run on the fake sysfs, and the group
    /// and mode of `attributes` (relative to the device) follow, one "path group mode" a line.
    /// `hwdb`: files (name, text) compiled into the hwdb udev reads, beside the system's.
    static func test(fixture: String, rules: String, hwdb: [(name: String, text: String)] = [],
                     executeRun: Bool = false,
                     attributes: [String] = []) throws -> (udevadm: String, attributes: String) {
        guard let arguments = unshareArguments else { throw PackagingFailure("no mount namespace here") }
        let unshare = try Command.tool("unshare", package: "util-linux")
        let umockdev = try Command.tool("umockdev-run", package: "umockdev")
        let udevadm = try Command.tool("udevadm", package: "udev")
        let description = Repository.path("Tests/Fixtures/udev/\(fixture).umockdev")
        let text = try String(contentsOfFile: description, encoding: .utf8)
        guard let first = text.split(separator: "\n").first, first.hasPrefix("P: ") else {
            throw PackagingFailure("\(fixture): the first line must be the device's P: line")
        }
        let syspath = "/sys" + first.dropFirst(3)

        let scratch = TemporaryDirectory()
        let rulesFile = scratch.file("70-tiltpuzzle.rules")
        try rules.write(toFile: rulesFile, atomically: false, encoding: .utf8)
        if !hwdb.isEmpty {
            _ = try Command.tool("systemd-hwdb", package: "udev")
            try FileManager.default.createDirectory(atPath: scratch.file("hwdb.d"), withIntermediateDirectories: false)
            for file in hwdb {
                try file.text.write(toFile: scratch.file("hwdb.d/\(file.name)"), atomically: false, encoding: .utf8)
            }
        }
        // Inside umockdev: udevadm test, then (asked) its RUN lines and the attributes.
        let inner = #"""
            udevadm=$1 syspath=$2 out=$3 execute=$4
            shift 4
            "$udevadm" test --action=add "$syspath" > "$out/udevadm" 2>&1 || { cat "$out/udevadm"; exit 1; }
            [ "$execute" = yes ] || exit 0
            sed -n "s/^run: '\(.*\)'\$/\1/p" "$out/udevadm" > "$out/run"
            while read -r program; do eval "$program"; done < "$out/run"
            cd "$syspath"
            for attribute in "$@"; do stat -c '%n %G %a' "$attribute"; done > "$out/attributes"
            """#
        let result = try Command.run(unshare, arguments + [
            "/bin/sh", "-c", script, "sh", scratch.path, rulesFile,
            umockdev, "-d", description, "--",
            "/bin/sh", "-c", inner, "sh", udevadm, syspath, scratch.path, executeRun ? "yes" : "no",
        ] + attributes)
        guard result.succeeded else { throw PackagingFailure("udevadm test of \(fixture) failed:\n\(result.transcript)") }
        let output = try String(contentsOfFile: scratch.file("udevadm"), encoding: .utf8)
        let attributeText = executeRun ? try String(contentsOfFile: scratch.file("attributes"), encoding: .utf8) : ""
        return (output, attributeText)
    }
}

/// What `udevadm test` reports of one device.
struct UdevTestReport {
    /// The device's properties after the rules (the block of KEY=value lines at the end).
    var properties: [String: String] = [:]
    /// What our rules file did, as "KEY value" (udevadm's trace: "GROUP 990", "MODE 0660").
    var ourActions: [String] = []
    /// The programs RUN would start, with udev's substitutions made.
    var run: [String] = []

    init(_ output: String, rulesName: String = "70-tiltpuzzle.rules") {
        for line in output.split(separator: "\n").map(String.init) {
            if line.hasPrefix("run: '") && line.hasSuffix("'") {
                run.append(String(line.dropFirst("run: '".count).dropLast()))
            } else if let range = line.range(of: "/\(rulesName):") {
                // "event7: /run/udev/rules.d/70-tiltpuzzle.rules:31 GROUP 990"
                let rest = line[range.upperBound...].drop { $0.isNumber }.trimmingCharacters(in: .whitespaces)
                ourActions.append(rest)
            } else if let equals = line.firstIndex(of: "="), equals != line.startIndex,
                      line[..<equals].allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" }) {
                properties[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
        }
    }
}
