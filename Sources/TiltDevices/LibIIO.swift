import CIIO

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
}
