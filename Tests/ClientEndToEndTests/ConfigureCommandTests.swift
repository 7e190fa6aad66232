// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import Testing

/// `tiltpuzzle configure` against the built daemon (docs/client.md).
struct ConfigureCommandTests {
    @Test func setsTheSensitivityAndStatusKeepsIt() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        let result = try Client.run(["configure", "--trigger", "25", "--release", "12"], on: daemon)
        #expect(result.status == 0)
        #expect(result.stdout == "tilt 25° to move, back under 12° to re-arm\n")
        let again = try Client.run(["configure", "--release", "8"], on: daemon)
        #expect(again.stdout == "tilt 25° to move, back under 8° to re-arm\n")
    }

    @Test func anglesTheDaemonRefusesExitOne() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        let result = try Client.run(["configure", "--trigger", "12", "--release", "11"], on: daemon)
        #expect(result.status == 1)
        #expect(result.stderr.contains("at least 2.0 degrees below"))
        let usage = try Client.run(["configure"], on: daemon)
        #expect(usage.status == 64)
    }
}
