// SPDX-License-Identifier: GPL-3.0-or-later
import CIIO
#if canImport(Glibc)
import Glibc
#endif
import TiltSystem

/// The libiio wrapper: the only file that imports CIIO.
///
/// libiio is opened at run time, the first time an IIO sensor's buffer starts, rather
/// than linked: it and its dependencies (libxml2, ICU, avahi, libusb, dbus) would
/// otherwise be loaded by every daemon, including one on a polled IIO sensor (read
/// through sysfs), an evdev sensor or none (docs/performance.md, memory). A system
/// without it still runs every other source, and polls an IIO sensor.
public enum LibIIO {
    /// The library's soname (Debian's package libiio0).
    static let soname = "libiio.so.0"

    /// libiio's functions, or why they are unavailable; resolved once, on first use.
    static let loaded: Result<Functions, IIOError> = load(soname)

    /// Opens `name` and resolves every function this file calls. Never closed: a
    /// process that needed libiio once will likely need it again.
    static func load(_ name: String) -> Result<Functions, IIOError> {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(.libraryUnavailable(dlerror().map { String(cString: $0) } ?? name))
        }
        do throws(IIOError) {
            return .success(try Functions(handle))
        } catch {
            return .failure(error)
        }
    }

    /// The library's version, e.g. "0.24 (v0.24)", or why it cannot be loaded.
    public static var version: String {
        let functions: Functions
        switch loaded {
        case .success(let loaded): functions = loaded
        case .failure(let error): return "unavailable (\(error))"
        }
        var major: UInt32 = 0
        var minor: UInt32 = 0
        var tag = [CChar](repeating: 0, count: 8)
        functions.libraryGetVersion(&major, &minor, &tag)
        return "\(major).\(minor) (\(String(decoding: tag.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))"
    }

    /// Pointers to the functions we call, typed by CIIO's `<name>_fn` declarations.
    struct Functions: @unchecked Sendable {
        let bufferDestroy: iio_buffer_destroy_fn
        let bufferEnd: iio_buffer_end_fn
        let bufferGetPollFd: iio_buffer_get_poll_fd_fn
        let bufferRefill: iio_buffer_refill_fn
        let bufferSetBlockingMode: iio_buffer_set_blocking_mode_fn
        let bufferStart: iio_buffer_start_fn
        let channelAttrGetFilename: iio_channel_attr_get_filename_fn
        let channelAttrRead: iio_channel_attr_read_fn
        let channelAttrWrite: iio_channel_attr_write_fn
        let channelDisable: iio_channel_disable_fn
        let channelEnable: iio_channel_enable_fn
        let channelFindAttr: iio_channel_find_attr_fn
        let channelGetDataFormat: iio_channel_get_data_format_fn
        let channelGetId: iio_channel_get_id_fn
        let channelGetIndex: iio_channel_get_index_fn
        let channelIsEnabled: iio_channel_is_enabled_fn
        let channelIsScanElement: iio_channel_is_scan_element_fn
        let contextDestroy: iio_context_destroy_fn
        let contextFindDevice: iio_context_find_device_fn
        let contextGetDevice: iio_context_get_device_fn
        let contextGetDevicesCount: iio_context_get_devices_count_fn
        let createLocalContext: iio_create_local_context_fn
        let deviceAttrRead: iio_device_attr_read_fn
        let deviceAttrWrite: iio_device_attr_write_fn
        let deviceCreateBuffer: iio_device_create_buffer_fn
        let deviceFindAttr: iio_device_find_attr_fn
        let deviceFindChannel: iio_device_find_channel_fn
        let deviceGetChannel: iio_device_get_channel_fn
        let deviceGetChannelsCount: iio_device_get_channels_count_fn
        let deviceGetId: iio_device_get_id_fn
        let deviceGetLabel: iio_device_get_label_fn
        let deviceGetName: iio_device_get_name_fn
        let deviceGetSampleSize: iio_device_get_sample_size_fn
        let deviceGetTrigger: iio_device_get_trigger_fn
        let deviceIsTrigger: iio_device_is_trigger_fn
        let deviceSetKernelBuffersCount: iio_device_set_kernel_buffers_count_fn
        let deviceSetTrigger: iio_device_set_trigger_fn
        let libraryGetVersion: iio_library_get_version_fn


        init(_ handle: UnsafeMutableRawPointer) throws(IIOError) {
            func symbol<Function>(_ name: String) throws(IIOError) -> Function {
                guard let address = dlsym(handle, name) else { throw .libraryUnavailable("\(name) is missing") }
                return unsafeBitCast(address, to: Function.self)
            }
            bufferDestroy = try symbol("iio_buffer_destroy")
            bufferEnd = try symbol("iio_buffer_end")
            bufferGetPollFd = try symbol("iio_buffer_get_poll_fd")
            bufferRefill = try symbol("iio_buffer_refill")
            bufferSetBlockingMode = try symbol("iio_buffer_set_blocking_mode")
            bufferStart = try symbol("iio_buffer_start")
            channelAttrGetFilename = try symbol("iio_channel_attr_get_filename")
            channelAttrRead = try symbol("iio_channel_attr_read")
            channelAttrWrite = try symbol("iio_channel_attr_write")
            channelDisable = try symbol("iio_channel_disable")
            channelEnable = try symbol("iio_channel_enable")
            channelFindAttr = try symbol("iio_channel_find_attr")
            channelGetDataFormat = try symbol("iio_channel_get_data_format")
            channelGetId = try symbol("iio_channel_get_id")
            channelGetIndex = try symbol("iio_channel_get_index")
            channelIsEnabled = try symbol("iio_channel_is_enabled")
            channelIsScanElement = try symbol("iio_channel_is_scan_element")
            contextDestroy = try symbol("iio_context_destroy")
            contextFindDevice = try symbol("iio_context_find_device")
            contextGetDevice = try symbol("iio_context_get_device")
            contextGetDevicesCount = try symbol("iio_context_get_devices_count")
            createLocalContext = try symbol("iio_create_local_context")
            deviceAttrRead = try symbol("iio_device_attr_read")
            deviceAttrWrite = try symbol("iio_device_attr_write")
            deviceCreateBuffer = try symbol("iio_device_create_buffer")
            deviceFindAttr = try symbol("iio_device_find_attr")
            deviceFindChannel = try symbol("iio_device_find_channel")
            deviceGetChannel = try symbol("iio_device_get_channel")
            deviceGetChannelsCount = try symbol("iio_device_get_channels_count")
            deviceGetId = try symbol("iio_device_get_id")
            deviceGetLabel = try symbol("iio_device_get_label")
            deviceGetName = try symbol("iio_device_get_name")
            deviceGetSampleSize = try symbol("iio_device_get_sample_size")
            deviceGetTrigger = try symbol("iio_device_get_trigger")
            deviceIsTrigger = try symbol("iio_device_is_trigger")
            deviceSetKernelBuffersCount = try symbol("iio_device_set_kernel_buffers_count")
            deviceSetTrigger = try symbol("iio_device_set_trigger")
            libraryGetVersion = try symbol("iio_library_get_version")

        }
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

    /// libiio's output without the lines that report nothing wrong.
    static func withoutKnownNoise(_ text: String) -> String {
        let noise = Array("High-speed mode not enabled".utf8)
        func isNoise(_ line: Substring) -> Bool {
            let bytes = Array(line.utf8)
            guard bytes.count >= noise.count else { return false }
            return (0...(bytes.count - noise.count)).contains { bytes[$0..<$0 + noise.count].elementsEqual(noise) }
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { !isNoise($0) }
            .joined(separator: "\n")
    }

    static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}

/// Why libiio cannot be used.
public enum IIOError: Error, Equatable, CustomStringConvertible {
    /// libiio is not installed, or lacks a function we call: the loader's reason.
    case libraryUnavailable(String)
    case system(Errno)

    public var description: String {
        switch self {
        case .libraryUnavailable(let reason): "IIO sensors need libiio (Debian: libiio0): \(reason)"
        case .system(let errno): "\(errno)"
        }
    }
}

/// A libiio context on the local backend: sysfs and the `/dev/iio:deviceN` nodes.
/// Devices, channels and buffers keep their context alive.
public final class IIOContext {
    let handle: OpaquePointer
    /// The devices, channels and buffers reach libiio through their context.
    let iio: LibIIO.Functions

    /// Loads libiio on first use; throws `.libraryUnavailable` when it cannot.
    public init() throws(IIOError) {
        iio = try LibIIO.loaded.get()
        guard let handle = iio.createLocalContext() else { throw .system(Errno.current) }
        self.handle = handle
    }

    deinit { iio.contextDestroy(handle) }

    public var devices: [IIODevice] {
        (0..<iio.contextGetDevicesCount(handle)).compactMap { index in
            iio.contextGetDevice(handle, index).map { IIODevice(handle: $0, context: self) }
        }
    }

    /// The device with this id (`iio:device0`, `trigger1`), label or name.
    public func device(_ key: String) -> IIODevice? {
        iio.contextFindDevice(handle, key).map { IIODevice(handle: $0, context: self) }
    }
}

/// An IIO device or trigger.
public struct IIODevice {
    let handle: OpaquePointer
    let context: IIOContext

    public var id: String { LibIIO.string(context.iio.deviceGetId(handle)) ?? "" }
    public var name: String? { LibIIO.string(context.iio.deviceGetName(handle)) }
    public var label: String? { LibIIO.string(context.iio.deviceGetLabel(handle)) }
    public var isTrigger: Bool { context.iio.deviceIsTrigger(handle) }

    public var channels: [IIOChannel] {
        (0..<context.iio.deviceGetChannelsCount(handle)).compactMap { index in
            context.iio.deviceGetChannel(handle, index).map { IIOChannel(handle: $0, context: context) }
        }
    }

    /// The input channel with this id, e.g. `accel_x` or `timestamp`.
    public func channel(_ id: String) -> IIOChannel? {
        context.iio.deviceFindChannel(handle, id, false).map { IIOChannel(handle: $0, context: context) }
    }

    public func hasAttribute(_ name: String) -> Bool { context.iio.deviceFindAttr(handle, name) != nil }

    public func attribute(_ name: String) throws(Errno) -> String {
        try LibIIO.readText { context.iio.deviceAttrRead(handle, name, $0, $1) }
    }

    public func setAttribute(_ name: String, _ value: String) throws(Errno) {
        _ = try LibIIO.check(context.iio.deviceAttrWrite(handle, name, value))
    }

    /// The current trigger; nil when none is set. Throws ENOENT when the device takes no trigger.
    public func trigger() throws(Errno) -> IIODevice? {
        var trigger: OpaquePointer?
        _ = try LibIIO.check(Int(context.iio.deviceGetTrigger(handle, &trigger)))
        return trigger.map { IIODevice(handle: $0, context: context) }
    }

    /// Sets the trigger, or with nil clears it.
    public func setTrigger(_ trigger: IIODevice?) throws(Errno) {
        _ = try LibIIO.check(Int(context.iio.deviceSetTrigger(handle, trigger?.handle)))
    }

    /// How many blocks of a buffer's size the kernel buffer holds: `buffer/length` is
    /// the samples per buffer times this (libiio's default is 4).
    public func setKernelBuffersCount(_ count: Int) throws(Errno) {
        _ = try LibIIO.check(Int(context.iio.deviceSetKernelBuffersCount(handle, UInt32(count))))
    }

    /// Opens the device node and enables the buffer with the channels enabled
    /// (`IIOChannel.enable`), writing their `scan_elements/*_en`.
    public func createBuffer(samples: Int) throws(Errno) -> IIOBuffer {
        // libiio 0.24 prints "High-speed mode not enabled" here whenever the kernel lacks
        // the out-of-tree DMA block interface, i.e. on every mainline driver: a message
        // fixed at its build time, with no setting to turn it off. It is caught and
        // dropped; anything else written meanwhile goes on to stderr (docs/sensors.md).
        let iio = context.iio
        let (created, printed) = StandardErrorCapture.run {
            let buffer = iio.deviceCreateBuffer(handle, samples, false)
            return (buffer, buffer == nil ? Errno.current : nil)
        }
        StandardErrorCapture.forward(LibIIO.withoutKnownNoise(printed))
        guard let buffer = created.0 else { throw created.1 ?? Errno.ioError }
        return IIOBuffer(handle: buffer, context: context)
    }

    /// Bytes per scan as libiio computes it for the enabled channels.
    public var sampleSize: Int? { try? LibIIO.check(context.iio.deviceGetSampleSize(handle)) }
}

/// A channel of a device: its attributes, and its place in a buffer's scans.
public struct IIOChannel {
    let handle: OpaquePointer
    let context: IIOContext

    public var id: String { LibIIO.string(context.iio.channelGetId(handle)) ?? "" }
    public var isScanElement: Bool { context.iio.channelIsScanElement(handle) }
    /// Position in a scan (`scan_elements/*_index`); negative when not a scan element.
    public var index: Int { context.iio.channelGetIndex(handle) }

    /// The layout libiio parsed from `scan_elements/*_type`; nil if it is unusable.
    public var format: ScanElementFormat? {
        guard isScanElement, let format = context.iio.channelGetDataFormat(handle)?.pointee else { return nil }
        return try? ScanElementFormat(bigEndian: format.is_be, signed: format.is_signed, bits: Int(format.bits),
                                      storageBits: Int(format.length), shift: Int(format.shift),
                                      repeatCount: max(1, Int(format.repeat)))
    }

    public func hasAttribute(_ name: String) -> Bool { context.iio.channelFindAttr(handle, name) != nil }

    /// The sysfs file behind an attribute: `in_accel_x_scale` or the shared `in_accel_scale`.
    public func attributeFile(_ name: String) -> String? {
        LibIIO.string(context.iio.channelAttrGetFilename(handle, name))
    }

    public func attribute(_ name: String) throws(Errno) -> String {
        try LibIIO.readText { context.iio.channelAttrRead(handle, name, $0, $1) }
    }

    public func setAttribute(_ name: String, _ value: String) throws(Errno) {
        _ = try LibIIO.check(context.iio.channelAttrWrite(handle, name, value))
    }

    /// Whether the next buffer will capture this channel (libiio's mask, not sysfs).
    public var isEnabled: Bool { context.iio.channelIsEnabled(handle) }
    public func enable() { context.iio.channelEnable(handle) }
    public func disable() { context.iio.channelDisable(handle) }
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
        if let handle { context.iio.bufferDestroy(handle) }
        handle = nil
    }

    /// The node's descriptor, readable when scans are waiting (owned by the buffer).
    public var descriptor: FileDescriptor? {
        guard let handle, let fd = try? LibIIO.check(Int(context.iio.bufferGetPollFd(handle))) else { return nil }
        return FileDescriptor(rawValue: Int32(fd))
    }

    public func setBlocking(_ blocking: Bool) throws(Errno) {
        guard let handle else { throw Errno.badFileDescriptor }
        _ = try LibIIO.check(Int(context.iio.bufferSetBlockingMode(handle, blocking)))
    }

    /// Reads what the kernel has (non-blocking: EAGAIN when nothing); returns the byte count.
    public func refill() throws(Errno) -> Int {
        guard let handle else { throw Errno.badFileDescriptor }
        return try LibIIO.check(context.iio.bufferRefill(handle))
    }

    /// The bytes of the last refill.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        guard let handle, let start = context.iio.bufferStart(handle), let end = context.iio.bufferEnd(handle) else {
            return body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return body(UnsafeRawBufferPointer(start: start, count: end - start))
    }
}
