import CUdev

/// The libudev wrapper: the only file that imports CUdev.
public final class UdevContext {
    let handle: OpaquePointer

    public init?() {
        guard let handle = udev_new() else { return nil }
        self.handle = handle
    }

    deinit { udev_unref(handle) }
}
