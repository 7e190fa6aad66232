// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import TiltDevices

/// Who holds a device node, from a /proc laid out by the test.
@Suite struct NodeHoldersTests {
    @Test func findsTheProgramsByTheirDescriptorsLinks() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("proc-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: root) }
        func process(_ pid: String, _ comm: String?, _ links: [String]) throws {
            let fd = root.appendingPathComponent(pid).appendingPathComponent("fd")
            try FileManager.default.createDirectory(at: fd, withIntermediateDirectories: true)
            if let comm { try (comm + "\n").write(to: root.appendingPathComponent(pid).appendingPathComponent("comm"), atomically: false, encoding: .utf8) }
            for (i, target) in links.enumerated() {
                try FileManager.default.createSymbolicLink(atPath: fd.appendingPathComponent("\(i)").path,
                                                           withDestinationPath: target)
            }
        }
        try process("101", "iio-sensor-prox", ["/dev/null", "/dev/iio:device0"])
        try process("202", "bash", ["/dev/pts/0"])
        try process("303", "monitor-sensor", ["/dev/iio:device0"])
        try process("404", nil, ["/dev/iio:device0"])
        try process("\(getpid())", "us", ["/dev/iio:device0"])   // this process is never a holder
        try process("self", "self", ["/dev/iio:device0"])        // not a process number
        #expect(NodeHolders.programs(holding: "/dev/iio:device0", procRoot: root.path)
                == ["iio-sensor-prox", "monitor-sensor", "process 404"])
        #expect(NodeHolders.programs(holding: "/dev/iio:device1", procRoot: root.path) == [])
        #expect(NodeHolders.programs(holding: "/dev/iio:device0", procRoot: root.path + "/none") == [])
    }
}
