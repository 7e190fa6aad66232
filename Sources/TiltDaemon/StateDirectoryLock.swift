// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// One daemon per state directory: an exclusive flock(2) on `tiltpuzzled.lock` in it,
/// held for the daemon's life (docs/tiltpuzzled.8.md, FILES). The kernel drops the lock
/// when the process ends however it ends, so it is never stale; the file holds the
/// holder's process id, so a daemon refused can say who holds it.
final class StateDirectoryLock {
    static let name = "tiltpuzzled.lock"

    enum Failure: Error {
        /// Another process holds the lock: its id, when the file says.
        case inUse(holder: Int32?)
        case system(Errno)
    }

    private let descriptor: FileDescriptor

    init(directory: String) throws(Failure) {
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try FileDescriptor.open(directory + "/" + Self.name, [.readWrite, .create], permissions: 0o600)
        } catch {
            throw .system(error)
        }
        let locked: Bool
        do throws(Errno) {
            locked = try fd.tryLockExclusively()
        } catch {
            try? fd.close()
            throw .system(error)
        }
        guard locked else {
            let holder = Self.holder(in: fd)
            try? fd.close()
            throw .inUse(holder: holder)
        }
        // The lock is what counts; the id only helps the message of a daemon refused, so
        // a full disk that cannot take it does not stop the start.
        if (try? fd.truncate(to: 0)) != nil { try? fd.writeAll("\(getpid())\n") }
        descriptor = fd
    }

    /// The process id the holder wrote; nil before it wrote it whole (with its newline),
    /// or when unreadable.
    private static func holder(in fd: FileDescriptor) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 32)
        guard let count = try? fd.read(into: &bytes), count > 1, bytes[count - 1] == UInt8(ascii: "\n") else {
            return nil
        }
        return Int32(String(decoding: bytes[..<(count - 1)], as: UTF8.self)).flatMap { $0 > 0 ? $0 : nil }
    }

    deinit { try? descriptor.close() }
}
