// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltSystem
@testable import TiltGUISDL
#if canImport(Glibc)
import Glibc
#endif

/// The file that says the first-start card was seen: absent at first, made with the
/// folders above it (private to the user) once remembered, and with no place for it the
/// card is not shown at all, rather than at every start.
@Suite struct FirstStartMarkerTests {
    static func mode(_ path: String) -> mode_t? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o777 : nil
    }

    @Test func rememberedOnceItExistsWithItsFolders() throws {
        let home = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        defer { home.remove() }
        let marker = FirstStartMarker(path: home.path + "/state/tiltpuzzle/welcomed")
        #expect(!marker.exists)
        marker.remember()
        #expect(marker.exists)
        #expect(Self.mode(home.path + "/state/tiltpuzzle/welcomed") == 0o600)
        #expect(Self.mode(home.path + "/state/tiltpuzzle") == 0o700)
        #expect(Self.mode(home.path + "/state") == 0o700)
        // Remembered again: still there, still empty.
        marker.remember()
        #expect(marker.exists)
        #expect(try FileDescriptor.readAll(home.path + "/state/tiltpuzzle/welcomed", limit: 16).isEmpty)
    }

    @Test func aMarkerThatCannotBeMadeLeavesTheCardToShowAgain() throws {
        let home = try TemporaryDirectory(prefix: "tiltpuzzle-test")
        defer { home.remove() }
        // A file where the folder should be: neither the folder nor the mark can be made.
        try FileDescriptor.replaceAtomically(home.path + "/state", with: [])
        let marker = FirstStartMarker(path: home.path + "/state/tiltpuzzle/welcomed")
        marker.remember()
        #expect(!marker.exists)
    }

    @Test func withNoPlaceForTheMarkTheCardCountsAsSeen() {
        let marker = FirstStartMarker(path: nil)
        #expect(marker.exists)
        marker.remember()
        #expect(marker.exists)
    }
}
