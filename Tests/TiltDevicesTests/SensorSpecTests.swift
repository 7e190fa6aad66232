// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltDevices

@Suite struct SensorSpecTests {
    @Test(arguments: [
        ("auto", SensorSpec.auto),
        ("iio", .iio(nil)),
        ("iio:accel_3d", .iio("accel_3d")),
        ("iio:iio:device3", .iio("iio:device3")),
        ("evdev", .evdev(nil)),
        ("evdev:/dev/input/event7", .evdev("/dev/input/event7")),
        ("evdev:/dev/input/by-id/usb-Sony_DualSense-event-if03", .evdev("/dev/input/by-id/usb-Sony_DualSense-event-if03")),
        ("evdev:DualSense", .evdev("DualSense")),
        ("replay:traces/demo.csv", .replay("traces/demo.csv")),
        ("replay:/tmp/a:b.csv", .replay("/tmp/a:b.csv")),
    ])
    func parses(text: String, spec: SensorSpec) throws {
        #expect(try SensorSpec(parsing: text) == spec)
        #expect(spec.description == text)
    }

    @Test(arguments: [
        ("", "empty"),
        ("iio:", "no device name after 'iio:'"),
        ("evdev:/", "evdev needs an event node's path or part of a device's name"),
        ("evdev:", "evdev needs an event node's path or part of a device's name"),
        ("replay", "replay needs a trace file: replay:FILE"),
        ("replay:", "replay needs a trace file: replay:FILE"),
        ("auto:x", "auto takes no argument"),
        ("usb", "unknown kind 'usb'"),
        ("IIO", "unknown kind 'IIO'"),
    ])
    func rejectsWithAClearMessage(text: String, problem: String) {
        let expected = SensorError("sensor source '\(text)': \(problem) (expected \(SensorSpec.syntax))")
        #expect(throws: expected) { try SensorSpec(parsing: text) }
    }
}
