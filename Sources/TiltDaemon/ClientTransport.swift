// SPDX-License-Identifier: GPL-3.0-or-later
/// Where a session's bytes go: a socket in the daemon, memory in tests.
public protocol ClientTransport: AnyObject {
    /// Writes what the peer can take now: the count taken, 0 when it would block,
    /// nil when the peer is gone.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int?
    func close()
    /// Who the peer is, for logs (`pid=… uid=… gid=…`).
    var peerDescription: String { get }
}
