extension StringProtocol {
    /// Without leading and trailing spaces, tabs and newlines (sysfs values end in one).
    var trimmingWhitespace: String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }

    /// A sysfs or udev number ("0.0980665\n"); nil when it is not one.
    var sysfsNumber: Double? {
        Double(trimmingWhitespace).flatMap { $0.isFinite ? $0 : nil }
    }
}

extension Double {
    /// As sysfs and udev write numbers: "50", not "50.0".
    var sysfsText: String {
        self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}
