// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Catches what a C library writes to stderr during one call, for a library that
/// prints a harmless message with no way to turn it off (libiio's "High-speed mode not
/// enabled" at every buffer start; docs/tilt-detection.md, IIO buffers).
///
/// Descriptor 2 is the whole process's, so for the length of the call it points into
/// a pipe, and what arrives is handed back: the caller writes on (`forward`) what it
/// keeps. Another thread's line written in that window lands in the pipe too and is
/// forwarded with the rest, a little later, never lost. Captures are serialized.
public enum StandardErrorCapture {
    private static let lock = Mutex<Void>(())

    /// Runs `body`; returns its result and the text written to stderr meanwhile. When
    /// the pipe cannot be set up, `body` runs with stderr untouched ("" captured).
    public static func run<R>(_ body: () -> R) -> (result: R, text: String) {
        var outcome: (result: R, text: String)?
        lock.withLock { _ in
            var ends: [Int32] = [-1, -1]
            guard (try? Syscall.call("pipe") { pipe(&ends) }) != nil else { return }
            let reader = FileDescriptor(rawValue: ends[0])
            let writer = FileDescriptor(rawValue: ends[1])
            defer { try? reader.close() }
            for end in ends { _ = try? Syscall.call("fcntl") { fcntl(end, F_SETFD, FD_CLOEXEC) } }
            guard let saved = try? Syscall.call("fcntl", { fcntl(2, F_DUPFD_CLOEXEC, 3) }),
                  (try? Syscall.call("dup2") { dup2(writer.rawValue, 2) }) != nil else {
                try? writer.close()
                return
            }
            try? writer.close()
            let result = body()
            // Restoring descriptor 2 closes the pipe's last write end: the read below ends.
            _ = try? Syscall.call("dup2") { dup2(saved, 2) }
            try? FileDescriptor(rawValue: saved).close()
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while let count = try? reader.read(into: &chunk), count > 0 { bytes += chunk[..<count] }
            outcome = (result, String(decoding: bytes, as: UTF8.self))
        }
        return outcome ?? (body(), "")
    }

    /// Writes `text` to stderr as it is.
    public static func forward(_ text: String) {
        guard !text.isEmpty else { return }
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count,
                  let written = try? Syscall.call("write", { write(2, bytes.baseAddress! + offset, bytes.count - offset) }),
                  written > 0 {
                offset += written
            }
        }
    }
}
