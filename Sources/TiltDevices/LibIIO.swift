import CIIO
import TiltSystem

/// The libiio wrapper: the only file that imports CIIO.
public enum LibIIO {
    /// The library's version, e.g. "0.24 (v0.24)".
    public static var version: String {
        var major: UInt32 = 0
        var minor: UInt32 = 0
        var tag = [CChar](repeating: 0, count: 8)
        iio_library_get_version(&major, &minor, &tag)
        return "\(major).\(minor) (\(String(decoding: tag.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))"
    }

    /// Room for any sysfs value we read (sysfs hands out at most a page).
    static let attributeCapacity = 4096

    /// libiio reports failure as a negative errno, or as -1/NULL with errno set.
    static func check(_ result: Int) throws(Errno) -> Int {
        if result >= 0 { return result }
        throw result == -1 ? Errno.current : Errno(rawValue: Int32(-result))
    }

    /// Reads an attribute through one of libiio's `*_attr_read` functions.
    static func readText(_ read: (UnsafeMutablePointer<CChar>, Int) -> Int) throws(Errno) -> String {
        var buffer = [CChar](repeating: 0, count: attributeCapacity)
        let count = try check(buffer.withUnsafeMutableBufferPointer { read($0.baseAddress!, $0.count) })
        let bytes = buffer.prefix(min(count, buffer.count)).prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self).trimmingWhitespace
    }

    static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}

/// A libiio context on the local backend: sysfs and the `/dev/iio:deviceN` nodes.
/// Devices, channels and buffers keep their context alive.
public final class IIOContext {
    let handle: OpaquePointer

    public init() throws(Errno) {
        guard let handle = iio_create_local_context() else { throw Errno.current }
        self.handle = handle
    }

    deinit { iio_context_destroy(handle) }

    public var devices: [IIODevice] {
        (0..<iio_context_get_devices_count(handle)).compactMap { index in
            iio_context_get_device(handle, index).map { IIODevice(handle: $0, context: self) }
        }
    }

    /// The device with this id (`iio:device0`, `trigger1`), label or name.
    public func device(_ key: String) -> IIODevice? {
        iio_context_find_device(handle, key).map { IIODevice(handle: $0, context: self) }
    }
}

/// An IIO device or trigger.
public struct IIODevice {
    let handle: OpaquePointer
    let context: IIOContext

    public var id: String { LibIIO.string(iio_device_get_id(handle)) ?? "" }
    public var name: String? { LibIIO.string(iio_device_get_name(handle)) }
    public var label: String? { LibIIO.string(iio_device_get_label(handle)) }
    public var isTrigger: Bool { iio_device_is_trigger(handle) }

    public var channels: [IIOChannel] {
        (0..<iio_device_get_channels_count(handle)).compactMap { index in
            iio_device_get_channel(handle, index).map { IIOChannel(handle: $0, context: context) }
        }
    }

    /// The input channel with this id, e.g. `accel_x` or `timestamp`.
    public func channel(_ id: String) -> IIOChannel? {
        iio_device_find_channel(handle, id, false).map { IIOChannel(handle: $0, context: context) }
    }

    public func hasAttribute(_ name: String) -> Bool { iio_device_find_attr(handle, name) != nil }

    public func attribute(_ name: String) throws(Errno) -> String {
        try LibIIO.readText { iio_device_attr_read(handle, name, $0, $1) }
    }

    public func setAttribute(_ name: String, _ value: String) throws(Errno) {
        _ = try LibIIO.check(iio_device_attr_write(handle, name, value))
    }

    /// The current trigger; nil when none is set. Throws ENOENT when the device takes no trigger.
    public func trigger() throws(Errno) -> IIODevice? {
        var trigger: OpaquePointer?
        _ = try LibIIO.check(Int(iio_device_get_trigger(handle, &trigger)))
        return trigger.map { IIODevice(handle: $0, context: context) }
    }

    /// Sets the trigger, or with nil clears it.
    public func setTrigger(_ trigger: IIODevice?) throws(Errno) {
        _ = try LibIIO.check(Int(iio_device_set_trigger(handle, trigger?.handle)))
    }

    /// How many blocks of a buffer's size the kernel buffer holds: `buffer/length` is
    /// the samples per buffer times this (libiio's default is 4).
    public func setKernelBuffersCount(_ count: Int) throws(Errno) {
        _ = try LibIIO.check(Int(iio_device_set_kernel_buffers_count(handle, UInt32(count))))
    }

    /// Opens the device node and enables the buffer with the channels enabled
    /// (`IIOChannel.enable`), writing their `scan_elements/*_en`.
    public func createBuffer(samples: Int) throws(Errno) -> IIOBuffer {
        guard let buffer = iio_device_create_buffer(handle, samples, false) else { throw Errno.current }
        return IIOBuffer(handle: buffer, context: context)
    }

    /// Bytes per scan as libiio computes it for the enabled channels.
    public var sampleSize: Int? { try? LibIIO.check(iio_device_get_sample_size(handle)) }
}

/// A channel of a device: its attributes, and its place in a buffer's scans.
public struct IIOChannel {
    let handle: OpaquePointer
    let context: IIOContext

    public var id: String { LibIIO.string(iio_channel_get_id(handle)) ?? "" }
    public var isScanElement: Bool { iio_channel_is_scan_element(handle) }
    /// Position in a scan (`scan_elements/*_index`); negative when not a scan element.
    public var index: Int { iio_channel_get_index(handle) }

    /// The layout libiio parsed from `scan_elements/*_type`; nil if it is unusable.
    public var format: ScanElementFormat? {
        guard isScanElement, let format = iio_channel_get_data_format(handle)?.pointee else { return nil }
        return try? ScanElementFormat(bigEndian: format.is_be, signed: format.is_signed, bits: Int(format.bits),
                                      storageBits: Int(format.length), shift: Int(format.shift),
                                      repeatCount: max(1, Int(format.repeat)))
    }

    public func hasAttribute(_ name: String) -> Bool { iio_channel_find_attr(handle, name) != nil }

    /// The sysfs file behind an attribute: `in_accel_x_scale` or the shared `in_accel_scale`.
    public func attributeFile(_ name: String) -> String? {
        LibIIO.string(iio_channel_attr_get_filename(handle, name))
    }

    public func attribute(_ name: String) throws(Errno) -> String {
        try LibIIO.readText { iio_channel_attr_read(handle, name, $0, $1) }
    }

    public func setAttribute(_ name: String, _ value: String) throws(Errno) {
        _ = try LibIIO.check(iio_channel_attr_write(handle, name, value))
    }

    /// Whether the next buffer will capture this channel (libiio's mask, not sysfs).
    public var isEnabled: Bool { iio_channel_is_enabled(handle) }
    public func enable() { iio_channel_enable(handle) }
    public func disable() { iio_channel_disable(handle) }
}

/// An enabled IIO buffer. Destroying it disables the buffer and its scan elements.
public final class IIOBuffer {
    private var handle: OpaquePointer?
    let context: IIOContext

    init(handle: OpaquePointer, context: IIOContext) {
        self.handle = handle
        self.context = context
    }

    deinit { destroy() }

    /// Disables the buffer and closes the node; safe to call twice.
    public func destroy() {
        if let handle { iio_buffer_destroy(handle) }
        handle = nil
    }

    /// The node's descriptor, readable when scans are waiting (owned by the buffer).
    public var descriptor: FileDescriptor? {
        guard let handle, let fd = try? LibIIO.check(Int(iio_buffer_get_poll_fd(handle))) else { return nil }
        return FileDescriptor(rawValue: Int32(fd))
    }

    public func setBlocking(_ blocking: Bool) throws(Errno) {
        guard let handle else { throw Errno.badFileDescriptor }
        _ = try LibIIO.check(Int(iio_buffer_set_blocking_mode(handle, blocking)))
    }

    /// Reads what the kernel has (non-blocking: EAGAIN when nothing); returns the byte count.
    public func refill() throws(Errno) -> Int {
        guard let handle else { throw Errno.badFileDescriptor }
        return try LibIIO.check(iio_buffer_refill(handle))
    }

    /// The bytes of the last refill.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        guard let handle, let start = iio_buffer_start(handle), let end = iio_buffer_end(handle) else {
            return body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return body(UnsafeRawBufferPointer(start: start, count: end - start))
    }
}
