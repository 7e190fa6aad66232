import TiltSystem

/// A client's socket as the hub's transport.
final class SocketTransport: ClientTransport {
    let descriptor: FileDescriptor
    let peerDescription: String
    private let onClose: (FileDescriptor) -> Void
    private var closed = false

    init(descriptor: FileDescriptor, onClose: @escaping (FileDescriptor) -> Void) {
        self.descriptor = descriptor
        peerDescription = UnixSocket.peerCredentials(descriptor)?.description ?? "unknown peer"
        self.onClose = onClose
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard !closed else { return nil }
        do throws(Errno) {
            return try UnixSocket.send(descriptor, bytes)
        } catch {
            return nil
        }
    }

    func close() {
        guard !closed else { return }
        closed = true
        onClose(descriptor)
        try? descriptor.close()
    }
}
