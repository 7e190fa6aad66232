// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltSystem

/// Plain `swift test` runs without umockdev's preload, which must be in place
/// before the process starts. This test runs the mock device tests again in a
/// child test process under `umockdev-wrapper`, and fails if any of them fails.
@Suite struct UmockdevRunTests {
    static let timeout = 600.0

    @Test(.enabled(if: !MockTestbed.isActive, "this is the run under umockdev"))
    func deviceTestsPassUnderUmockdev() throws {
        let wrapper = try #require(Self.find("umockdev-wrapper"),
                                   "umockdev-wrapper not found: install umockdev and libumockdev-dev")
        let binary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("mock-device-tests-\(getpid()).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }

        let process = try ChildProcess([wrapper, binary, "--testing-library", "swift-testing", "--filter", "MockDeviceTests"],
                                       environment: ["NO_COLOR": "1"], standardOutput: .file(log.path),
                                       standardError: .file(log.path), otherDescriptors: .closed)
        var status = try process.wait(timeout: Self.timeout)
        let timedOut = status == nil
        if timedOut {
            process.signal(SIGTERM)
            status = process.wait()
        }
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        // The measurements the device tests print, for the log of this run.
        for line in text.split(separator: "\n") where line.contains("[measure]") { print(line) }

        #expect(!timedOut, "the device tests did not finish in \(Int(Self.timeout)) s:\n\(text)")
        #expect(status == 0, "device tests under umockdev failed:\n\(text)")
        let summary = text.split(separator: "\n").last { $0.contains("Test run with") }.map(String.init) ?? ""
        #expect(summary.contains("passed") && !summary.contains(" 0 tests"), "unexpected summary: '\(summary)'\n\(text)")
        // Under the preload nothing may skip: a child run whose tests all skipped passes too.
        let skipped = text.split(separator: "\n").filter { $0.contains(" skipped") }
        #expect(skipped.isEmpty, "device tests skipped under umockdev:\n\(skipped.joined(separator: "\n"))")
    }

    static func find(_ program: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return (path.split(separator: ":").map(String.init) + ["/usr/bin"])
            .map { $0 + "/" + program }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
