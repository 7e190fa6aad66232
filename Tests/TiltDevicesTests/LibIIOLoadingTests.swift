// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import TiltDevices
import TiltSystem

/// libiio is opened at run time (docs/performance.md): every function the wrapper calls
/// must resolve, and a missing library must say what to install.
@Suite struct LibIIOLoadingTests {
    @Test func resolvesEveryFunctionOfTheInstalledLibrary() throws {
        let functions = try LibIIO.load(LibIIO.soname).get()
        var major: UInt32 = 0
        var minor: UInt32 = 0
        var tag = [CChar](repeating: 0, count: 8)
        functions.libraryGetVersion(&major, &minor, &tag)
        #expect(major == 0 && minor >= 23, "libiio 0.23 or newer (iio_device_get_label)")
        #expect(LibIIO.version.hasPrefix("\(major).\(minor) "))
    }

    @Test func aMissingLibraryNamesThePackageToInstall() {
        let result = LibIIO.load("libiio-absent.so.0")
        guard case .failure(let error) = result else {
            Issue.record("loaded a library that does not exist")
            return
        }
        guard case .libraryUnavailable(let reason) = error else {
            Issue.record("expected libraryUnavailable, got \(error)")
            return
        }
        #expect(reason.contains("libiio-absent.so.0"))
        #expect(error.description.hasPrefix("IIO sensors need libiio (Debian: libiio0): "))
    }

    @Test func dropsOnlyTheHighSpeedNotice() {
        #expect(LibIIO.withoutKnownNoise("WARNING: High-speed mode not enabled\n") == "")
        #expect(LibIIO.withoutKnownNoise("ERROR: Unable to enqueue block: x\nWARNING: High-speed mode not enabled\n")
            == "ERROR: Unable to enqueue block: x\n")
        #expect(LibIIO.withoutKnownNoise("WARNING: Unable to read INI file: 2\n") == "WARNING: Unable to read INI file: 2\n")
        #expect(LibIIO.withoutKnownNoise("") == "")
    }

    /// What a call writes to descriptor 2 is caught, and descriptor 2 is stderr again after.
    @Test func capturesStderrForTheLengthOfOneCall() {
        var before = stat()
        fstat(2, &before)
        let (value, text) = StandardErrorCapture.run { () -> Int in
            let line = "written during the call\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
            return 42
        }
        var after = stat()
        fstat(2, &after)
        #expect(value == 42)
        #expect(text.contains("written during the call\n"))
        #expect(before.st_dev == after.st_dev && before.st_ino == after.st_ino)
    }
}
