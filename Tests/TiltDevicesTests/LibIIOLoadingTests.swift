import Testing
@testable import TiltDevices

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
}
