// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TiltSystem

/// A device's sysfs directory laid out in a temporary folder from one of the udev
/// fixtures (`Tests/Fixtures/udev/NAME.umockdev`): each `A:` line of its first device
/// (`A: buffer/enable=0`) becomes a file with that value, as the kernel shows it.
final class SysfsFixture {
    let root: TemporaryDirectory
    /// The device's directory: the folder itself, or `device` in it (`iio:device1`,
    /// beside the triggers a test adds, as in `/sys/bus/iio/devices`).
    let path: String

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/udev")

    init(_ name: String, device: String? = nil) throws {
        let root = try TemporaryDirectory(prefix: "sysfs-fixture")
        self.root = root
        path = device.map { root.path + "/" + $0 } ?? root.path
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent(name + ".umockdev"), encoding: .utf8)
        // The first device ends at the first blank line (its parents follow).
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(while: { !$0.isEmpty })
        where line.hasPrefix("A: ") {
            let assignment = line.dropFirst(3)
            guard let equals = assignment.firstIndex(of: "=") else { continue }
            try write(String(assignment[..<equals]), String(assignment[assignment.index(after: equals)...]))
        }
    }

    deinit { root.remove() }

    /// The full path of `name` (`buffer/enable`) in the device's directory.
    func file(_ name: String) -> String { path + "/" + name }

    /// Writes `name` as a program would (the value and a newline), making its folder.
    func write(_ name: String, _ value: String) throws {
        try write(path: file(name), value)
    }

    /// Removes `name` from the device's directory.
    func remove(_ name: String) throws {
        try FileManager.default.removeItem(atPath: file(name))
    }

    /// Writes a file beside the device (`trigger1/name`), as `write` does.
    func writeBeside(_ name: String, _ value: String) throws {
        try write(path: root.path + "/" + name, value)
    }

    private func write(path: String, _ value: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try (value + "\n").write(to: url, atomically: false, encoding: .utf8)
    }

    /// The value of `name`, trimmed; nil when there is no such file.
    func read(_ name: String) -> String? {
        (try? String(contentsOfFile: file(name), encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
