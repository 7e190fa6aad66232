// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltSystem

@Suite struct RealPathTests {
    @Test func followsLinksToTheFile() throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-realpath")
        defer { folder.remove() }
        func file(_ name: String) -> String { folder.path + "/" + name }
        let node = file("event7")
        #expect(FileManager.default.createFile(atPath: node, contents: Data()))
        try FileManager.default.createDirectory(atPath: file("by-id"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: file("by-id/usb-pad-event"), withDestinationPath: "../event7")
        let real = try RealPath.of(file("by-id/usb-pad-event"))
        #expect(real == (try RealPath.of(node)))
        #expect(real.hasSuffix("/event7") && !real.contains("by-id"))
        #expect(throws: Errno.noSuchFile.reported(by: "realpath")) { try RealPath.of(file("by-id/missing")) }
    }
}
