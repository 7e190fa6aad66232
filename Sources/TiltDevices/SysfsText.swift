// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore

extension StringProtocol {
    /// A sysfs or udev number ("0.0980665\n"); nil when it is not one.
    var sysfsNumber: Double? {
        Double(trimmingWhitespace).flatMap { $0.isFinite ? $0 : nil }
    }
}

extension Double {
    /// As sysfs and udev write numbers: "50", not "50.0", "62.5" as it is; how listings
    /// and JSON show rates and matrices too.
    public var sysfsText: String {
        self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}
