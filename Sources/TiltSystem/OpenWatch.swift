// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// Tells whether anyone opened a file (an inotify watch for `IN_OPEN`), as a
/// descriptor the event loop waits on. For a device node another program opens
/// now and then: the kernel reports each open, however briefly the node stays open.
public final class OpenWatch {
    public let descriptor: FileDescriptor
    private var isOpen = true

    /// Watches `path`. (`Syscall` names "inotify_init1" and "inotify_add_watch".)
    public init(_ path: String) throws(Errno) {
        descriptor = FileDescriptor(rawValue: try Syscall.call("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) })
        do throws(Errno) {
            _ = try Syscall.call("inotify_add_watch") { inotify_add_watch(descriptor.rawValue, path, UInt32(IN_OPEN)) }
        } catch {
            try? descriptor.close()
            isOpen = false
            throw error
        }
    }

    deinit { close() }

    /// Whether the file was opened since the watch began or this was last asked;
    /// takes the events that say so.
    public func opened() -> Bool {
        var seen = false
        var bytes = [UInt8](repeating: 0, count: 4096)
        while isOpen, let count = try? descriptor.read(into: &bytes), count > 0 {
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len, then len bytes of name.
            while offset + 16 <= count {
                let mask = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self) }
                let nameLength = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self) }
                if mask & UInt32(IN_OPEN) != 0 { seen = true }
                offset += 16 + Int(nameLength)
            }
        }
        return seen
    }

    public func close() {
        guard isOpen else { return }
        isOpen = false
        try? descriptor.close()
    }
}
