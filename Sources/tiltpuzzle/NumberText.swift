// SPDX-License-Identifier: GPL-3.0-or-later
extension Double {
    /// "50" rather than "50.0", "62.5" as it is: for rates and matrices in listings and JSON.
    var plainText: String {
        self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}
