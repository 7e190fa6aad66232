// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing

/// udev/70-tiltpuzzle.rules: read as udev reads it, and run by `udevadm test` against
/// fake devices (umockdev) where a private mount namespace is allowed.
@Suite struct UdevRulesTests {
    static let group = "tiltpuzzle"

    /// The IIO attributes the daemon writes (sampling rate, timestamp clock, buffer,
    /// scan elements, trigger), as the RUN program names them.
    static let writtenAttributes = [
        "sampling_frequency", "in_accel_sampling_frequency", "current_timestamp_clock",
        "buffer/enable", "buffer/length", "buffer/watermark", "trigger/current_trigger", "scan_elements/in_*_en",
    ]

    static func rulesText() throws -> String { try Repository.text("udev/70-tiltpuzzle.rules") }

    static let matchKeys: Set = ["ACTION", "DEVPATH", "KERNEL", "KERNELS", "NAME", "SYMLINK", "SUBSYSTEM", "SUBSYSTEMS",
                                 "DRIVER", "DRIVERS", "ATTR", "ATTRS", "SYSCTL", "ENV", "CONST", "TAG", "TAGS", "TEST",
                                 "PROGRAM", "RESULT"]
    static let assignmentKeys: Set = ["NAME", "SYMLINK", "OWNER", "GROUP", "MODE", "SECLABEL", "ATTR", "SYSCTL", "ENV",
                                      "TAG", "RUN", "LABEL", "GOTO", "IMPORT", "OPTIONS"]
    static let keysWithAttribute: Set = ["ATTR", "ATTRS", "SYSCTL", "ENV", "CONST", "IMPORT", "SECLABEL"]
    static let keysWithOptionalAttribute: Set = ["TEST", "RUN"]

    // MARK: read as udev reads it

    @Test func everyLineIsAWellFormedRule() throws {
        let rules = try UdevRule.parse(try Self.rulesText())
        #expect(!rules.isEmpty)
        var labels: [String] = []
        for rule in rules {
            for pair in rule.pairs {
                let known = pair.isMatch ? Self.matchKeys : Self.assignmentKeys
                #expect(known.contains(pair.key), "line \(rule.line): \(pair) is not a \(pair.isMatch ? "match" : "assignment")")
                if Self.keysWithAttribute.contains(pair.key) {
                    #expect(pair.attribute?.isEmpty == false, "line \(rule.line): \(pair.key) needs {…}")
                } else if !Self.keysWithOptionalAttribute.contains(pair.key) {
                    #expect(pair.attribute == nil, "line \(rule.line): \(pair.key) takes no {…}")
                }
                if ["LABEL", "GOTO", "GROUP", "MODE"].contains(pair.key) {
                    #expect(pair.op == "=", "line \(rule.line): \(pair)")
                }
                if pair.key == "MODE" {
                    #expect(pair.value.count == 4 && pair.value.allSatisfy { ("0"..."7").contains($0) }, "line \(rule.line): \(pair)")
                }
            }
            labels += rule.values("LABEL")
        }
        #expect(Set(labels).count == labels.count, "labels are unique")
        for rule in rules {
            for target in rule.values("GOTO") {
                #expect(labels.contains(target), "line \(rule.line): GOTO \(target) has no LABEL")
            }
        }
    }

    @Test func theParserRejectsWhatUdevWould() {
        for broken in ["SUBSYSTEM==iio", "SUBSYSTEM=\"iio", "SUBSYSTEM~\"iio\"", "subsystem==\"iio\"",
                       "SUBSYSTEM==\"iio\" KERNEL==\"x\"", "ENV{A==\"1\""] {
            #expect(throws: UdevRule.SyntaxError.self, "\(broken)") { try UdevRule.parse(broken) }
        }
        #expect((try? UdevRule.parse("A==\"x\\\"y\", \\\n  B=\"z\""))?.first?.pairs.map(\.value) == ["x\"y", "z"])
    }

    @Test func recognisesAccelerometersSkipsTheBaseAndGrantsTheGroup() throws {
        let rules = try UdevRule.parse(try Self.rulesText())
        let end = try #require(rules.last?.values("LABEL").first, "the file ends with its label")
        #expect(rules.first?.contains("ACTION", nil, "==", "remove") == true && rules.first?.values("GOTO") == [end])

        func first(_ predicate: (UdevRule) -> Bool) -> Int? { rules.firstIndex(where: predicate) }
        let iioRaw = first { $0.contains("SUBSYSTEM", nil, "==", "iio") && $0.contains("TEST", nil, "==", "in_accel_x_raw") }
        let iioScan = first { $0.contains("SUBSYSTEM", nil, "==", "iio") && $0.contains("TEST", nil, "==", "scan_elements/in_accel_x_en") }
        let evdev = first { $0.contains("SUBSYSTEM", nil, "==", "input") && $0.contains("ENV", "ID_INPUT_ACCELEROMETER", "==", "1") }
        let base = first { $0.contains("ENV", "ACCEL_LOCATION", "==", "base") && $0.values("GOTO") == [end] }
        let grant = first { !$0.values("GROUP").isEmpty }
        #expect(iioRaw != nil && iioScan != nil && evdev != nil, "IIO (raw or scan element) and evdev accelerometers")
        let baseIndex = try #require(base, "a base accelerometer goes to the end")
        let grantIndex = try #require(grant)
        #expect(baseIndex < grantIndex, "the base is skipped before anything is granted")

        #expect(Set(rules.flatMap { $0.values("GROUP") }) == [Self.group])
        #expect(Set(rules.flatMap { $0.values("MODE") }) == ["0660", "0640"])
        #expect(rules.contains { $0.contains("TAG", nil, "+=", "systemd") && $0.contains("ENV", "SYSTEMD_WANTS", "+=", "tiltpuzzled.service") })

        let programs = rules.flatMap { $0.values("RUN") }
        #expect(programs.count == 1)
        let program = try #require(programs.first)
        #expect(program.contains("$sys$devpath") && program.contains("chgrp \(Self.group) ") && program.contains("chmod g+w "))
        for attribute in Self.writtenAttributes {
            #expect(program.contains(" \(attribute) ") || program.contains(" \(attribute);"), "RUN opens \(attribute)")
        }
    }

    // MARK: run by udevadm test on fake devices

    struct Case: CustomStringConvertible, Sendable {
        var fixture: String
        /// TILTPUZZLE_SENSOR expected, and the node's mode; nil: the rules leave it alone.
        var sensor: String?
        var mode: String?
        var description: String { fixture }
    }

    static let cases = [
        Case(fixture: "iio-polled", sensor: "iio", mode: "0660"),
        Case(fixture: "iio-buffered", sensor: "iio", mode: "0660"),
        Case(fixture: "evdev-accelerometer", sensor: "evdev", mode: "0640"),
        Case(fixture: "iio-base-location", sensor: nil, mode: nil),
        Case(fixture: "iio-base-label", sensor: nil, mode: nil),
        Case(fixture: "iio-light", sensor: nil, mode: nil),
        Case(fixture: "evdev-keyboard", sensor: nil, mode: nil),
        Case(fixture: "evdev-dualsense-motion", sensor: "evdev", mode: "0640"),
        Case(fixture: "evdev-dualsense-gamepad", sensor: nil, mode: nil),
        Case(fixture: "evdev-dualshock3-motion", sensor: "evdev", mode: "0640"),
        Case(fixture: "evdev-switchpro-imu", sensor: "evdev", mode: "0640"),
        Case(fixture: "evdev-joycon-left-imu", sensor: "evdev", mode: "0640"),
        Case(fixture: "evdev-wiimote-accelerometer", sensor: "evdev", mode: "0640"),
        Case(fixture: "evdev-wiimote-motionplus", sensor: nil, mode: nil),
    ]

    static func hwdbFile() throws -> (name: String, text: String) {
        let name = "61-tiltpuzzle-controllers.hwdb"
        return (name, try Repository.text("udev/\(name)"))
    }

    /// With our hwdb compiled beside the system's: a controller's motion node gets the
    /// controller frame (docs/sensors.md, "Game controllers"); its gamepad node, and an
    /// accelerometer that is no controller, get nothing from us.
    @Test(.enabled(if: UdevSandbox.available, "needs a private mount namespace (unshare)"),
          arguments: [("evdev-dualsense-motion", "1, 0, 0; 0, 0, -1; 0, 1, 0"),
                      ("evdev-dualshock3-motion", "1, 0, 0; 0, 0, -1; 0, 1, 0"),
                      ("evdev-switchpro-imu", "0, -1, 0; 1, 0, 0; 0, 0, 1"),
                      ("evdev-joycon-left-imu", "-1, 0, 0; 0, -1, 0; 0, 0, 1"),
                      ("evdev-wiimote-accelerometer", "0, -1, 0; -1, 0, 0; 0, 0, 1"),
                      ("evdev-wiimote-motionplus", nil),
                      ("evdev-dualsense-gamepad", nil), ("evdev-accelerometer", nil)] as [(String, String?)])
    func controllersGetTheirFrameFromOurHwdb(fixture: String, matrix: String?) throws {
        let (output, _) = try UdevSandbox.test(fixture: fixture, rules: try Self.rulesText(), hwdb: [try Self.hwdbFile()])
        let report = UdevTestReport(output)
        #expect(report.properties["DEVPATH"] != nil, "udevadm test printed the device:\n\(output)")
        #expect(report.properties["ACCEL_MOUNT_MATRIX"] == matrix, "\(output)")
    }

    /// Every entry of the hwdb file is a well-formed block: match lines, then
    /// properties we define (udev would take a misspelt one silently).
    @Test func theHwdbFileHasOnlyControllerFramesAndWellFormedBlocks() throws {
        let lines = try Self.hwdbFile().text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("#") }
        var matches = 0, properties = 0, inBlock = false
        for line in lines {
            if line.isEmpty {
                inBlock = false
            } else if line.hasPrefix(" ") {
                #expect(inBlock && line.hasPrefix(" ACCEL_MOUNT_MATRIX="), "\(line)")
                properties += 1
            } else {
                #expect(line.hasPrefix("sensor:modalias:input:b*v054Cp") || line.hasPrefix("sensor:modalias:input:b*v057Ep"),
                        "\(line)")
                inBlock = true
                matches += 1
            }
        }
        #expect(matches >= 12 && properties >= 5)
    }

    @Test(.enabled(if: UdevSandbox.available, "needs a private mount namespace (unshare)"), arguments: cases)
    func udevadmTest(_ test: Case) throws {
        let (output, _) = try UdevSandbox.test(fixture: test.fixture, rules: try Self.rulesText())
        let report = UdevTestReport(output)
        #expect(report.properties["DEVPATH"] != nil, "udevadm test printed the device:\n\(output)")
        guard let sensor = test.sensor, let mode = test.mode else {
            #expect(report.properties["TILTPUZZLE_SENSOR"] == nil)
            #expect(report.ourActions == [], "our rules did nothing")
            #expect(report.properties["SYSTEMD_WANTS"]?.contains("tiltpuzzled.service") != true)
            return
        }
        #expect(report.properties["TILTPUZZLE_SENSOR"] == sensor)
        #expect(report.properties["TAGS"]?.contains(":systemd:") == true)
        #expect(report.properties["SYSTEMD_WANTS"]?.split(separator: " ").contains("tiltpuzzled.service") == true)
        #expect(report.ourActions.contains("GROUP \(UdevSandbox.gid)"), "\(report.ourActions)")
        #expect(report.ourActions.contains("MODE \(mode)"), "\(report.ourActions)")
        let ours = report.run.filter { $0.contains("chgrp \(Self.group)") }
        if sensor == "iio" {
            let program = try #require(ours.first, "\(report.run)")
            let devpath = try #require(report.properties["DEVPATH"])
            #expect(program.contains("cd /sys\(devpath) ||"), "udev filled in the device's path: \(program)")
            #expect(!program.contains("$$") && program.contains("[ -f $a ]"), "$$ became $: \(program)")
        } else {
            #expect(ours.isEmpty, "evdev devices have no attributes to open")
        }
    }

    /// input_id calls the Wii Remote's accelerometer a joystick (ABS_RX/RY/RZ, no
    /// INPUT_PROP_ACCELEROMETER); our rule marks it an accelerometer and no joystick,
    /// and leaves the Motion Plus gyroscope (the same axes, another name) as it was.
    @Test(.enabled(if: UdevSandbox.available, "needs a private mount namespace (unshare)"))
    func theWiiRemotesAccelerometerIsMarkedByItsNameAndAxes() throws {
        let marked = UdevTestReport(try UdevSandbox.test(fixture: "evdev-wiimote-accelerometer",
                                                         rules: try Self.rulesText()).udevadm)
        #expect(marked.properties["ID_INPUT_ACCELEROMETER"] == "1")
        #expect(marked.properties["ID_INPUT_JOYSTICK"] == nil)
        let gyroscope = UdevTestReport(try UdevSandbox.test(fixture: "evdev-wiimote-motionplus",
                                                            rules: try Self.rulesText()).udevadm)
        #expect(gyroscope.properties["ID_INPUT_ACCELEROMETER"] == nil)
        #expect(gyroscope.properties["ID_INPUT_JOYSTICK"] == "1", "input_id's judgement, which the rule corrects")
        // Without our line the accelerometer is input_id's joystick, and not ours.
        let rules = try Self.rulesText().split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("Nintendo Wii Remote Accelerometer") }.joined(separator: "\n")
        let unmarked = UdevTestReport(try UdevSandbox.test(fixture: "evdev-wiimote-accelerometer", rules: rules).udevadm)
        #expect(unmarked.properties["ID_INPUT_JOYSTICK"] == "1")
        #expect(unmarked.properties["TILTPUZZLE_SENSOR"] == nil)
    }

    @Test(.enabled(if: UdevSandbox.available, "needs a private mount namespace (unshare)"))
    func withoutTheBaseSkipTheBaseFixturesWouldMatch() throws {
        // The base fixtures can fail the test above: without the two skip lines they are tagged.
        let rules = try Self.rulesText().split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("ACCEL_LOCATION}==\"base\"") && !$0.contains("ATTR{label}==\"accel-base\"") }
            .joined(separator: "\n")
        #expect(rules != (try Self.rulesText()))
        for fixture in ["iio-base-location", "iio-base-label"] {
            let report = UdevTestReport(try UdevSandbox.test(fixture: fixture, rules: rules).udevadm)
            #expect(report.properties["TILTPUZZLE_SENSOR"] == "iio", "\(fixture)")
        }
    }

    @Test(.enabled(if: UdevSandbox.ownsFiles, "needs root and a private mount namespace, to change file groups"),
          arguments: [
            ("iio-buffered", ["sampling_frequency", "current_timestamp_clock", "buffer/enable", "buffer/length",
                              "buffer/watermark", "scan_elements/in_accel_x_en", "scan_elements/in_accel_y_en",
                              "scan_elements/in_accel_z_en", "scan_elements/in_timestamp_en", "trigger/current_trigger"],
             ["name", "sampling_frequency_available", "scan_elements/in_accel_x_type", "scan_elements/in_accel_x_index"]),
            ("iio-polled", ["in_accel_sampling_frequency", "current_timestamp_clock"],
             ["name", "in_accel_x_raw", "in_accel_scale", "sampling_frequency_available"]),
          ])
    func theRunProgramOpensExactlyTheWrittenAttributes(fixture: String, opened: [String], untouched: [String]) throws {
        let (_, attributes) = try UdevSandbox.test(fixture: fixture, rules: try Self.rulesText(), executeRun: true,
                                                   attributes: opened + untouched)
        let expected = opened.map { "\($0) \(Self.group) 664" } + untouched.map { "\($0) root 644" }
        #expect(attributes.split(separator: "\n").map(String.init) == expected)
    }
}
