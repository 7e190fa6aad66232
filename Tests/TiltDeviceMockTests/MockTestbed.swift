// SPDX-License-Identifier: GPL-3.0-or-later
import CUmockdev
import Foundation
import Synchronization
import TiltSystem

/// umockdev's testbed: a fake /sys and /dev that the real libudev, libiio and
/// libevdev see when the process runs under umockdev's preload library.
///
/// One testbed per process (umockdev's rule). Device and node names must not be
/// reused within a process, even after removal: `MockTestbed.nextNumber()` hands
/// out fresh ones.
final class MockTestbed: @unchecked Sendable {
    // @unchecked: the mock tests run serialized (one parent suite), so the testbed
    // is never used from two tests at once.

    /// True in the re-executed test process that runs under the preload.
    static let isActive = ProcessInfo.processInfo.environment["LD_PRELOAD"]?.contains("libumockdev-preload") == true

    static let shared = MockTestbed()

    private let testbed: OpaquePointer

    private init() {
        testbed = OpaquePointer(umockdev_testbed_new()!)
        // Finalizing the testbed deletes its directory; it lives as long as the process.
        atexit { g_object_unref(UnsafeMutableRawPointer(MockTestbed.shared.testbed)) }
    }

    private var handle: UnsafeMutablePointer<UMockdevTestbed> { UnsafeMutablePointer(testbed) }

    private static let counter = Mutex(10)

    /// A number no device of this process has used.
    static func nextNumber() -> Int {
        counter.withLock { value in
            value += 1
            return value
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Devices added and not yet removed, parents before children.
    private var plugged: [String] = []

    /// Removes every device (start of each test). Not umockdev_testbed_clear:
    /// that also deletes the ioctl sockets, and then no node can be opened.
    func reset() {
        for syspath in plugged.reversed() where FileManager.default.fileExists(atPath: syspath) {
            umockdev_testbed_remove_device(handle, syspath)
        }
        plugged.removeAll()
    }

    /// Adds devices in umockdev-record's text format; sends their `add` uevents.
    func add(_ description: String) throws {
        var error: UnsafeMutablePointer<GError>?
        guard umockdev_testbed_add_from_string(handle, description, &error) != 0 else {
            defer { g_error_free(error) }
            throw Failure(description: "umockdev: " + (error.map { String(cString: $0.pointee.message) } ?? "?"))
        }
        plugged += description.split(separator: "\n").filter { $0.hasPrefix("P: ") }.map { "/sys" + $0.dropFirst(3) }
    }

    /// Loads ioctl replies for a node (umockdev's ioctl record format).
    func loadIoctl(node: String, records: String) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mock-\(getpid())-\(Self.nextNumber()).ioctl")
        try records.write(to: file, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        var error: UnsafeMutablePointer<GError>?
        guard umockdev_testbed_load_ioctl(handle, node, file.path, &error) != 0 else {
            defer { g_error_free(error) }
            throw Failure(description: "umockdev ioctl: " + (error.map { String(cString: $0.pointee.message) } ?? "?"))
        }
    }

    /// The test's end of a node's pty: bytes written here are what the program reads.
    func nodeDescriptor(_ node: String) throws -> FileDescriptor {
        let fd = umockdev_testbed_get_dev_fd(handle, node)
        guard fd >= 0 else { throw Failure(description: "no pty behind \(node)") }
        return FileDescriptor(rawValue: fd)
    }

    func setAttribute(_ syspath: String, _ name: String, _ value: String) {
        umockdev_testbed_set_attribute(handle, syspath, name, value)
    }

    /// What the kernel does when a device goes: the `remove` uevent, then the
    /// sysfs directory disappears.
    func unplug(_ syspath: String) {
        umockdev_testbed_uevent(handle, syspath, "remove")
        umockdev_testbed_remove_device(handle, syspath)
        plugged.removeAll { $0.hasPrefix(syspath) }
    }

    /// A mocked sysfs attribute as stored: without the newline or the NUL that libiio writes.
    static func attribute(_ syspath: String, _ name: String) -> String? {
        guard let data = FileManager.default.contents(atPath: syspath + "/" + name) else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: CharacterSet.whitespacesAndNewlines
            .union(CharacterSet(charactersIn: "\0")))
    }
}
