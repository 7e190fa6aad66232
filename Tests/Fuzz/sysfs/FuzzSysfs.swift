// SPDX-License-Identifier: GPL-3.0-or-later
import FuzzSupport
import TiltCore
@testable import TiltDevices

/// What sysfs and udev hand the device layer as text: mount matrices, numbers and
/// the offered sampling rates. A matrix that parses is finite and invertible and
/// its text form parses back to it; a number is finite; a chosen rate is one the
/// driver offered and faster than the current one.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSysfs(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let choice = input.byte()
    let text = String(decoding: input.rest(), as: UTF8.self)
    switch choice % 3 {
    case 0:
        guard let matrix = try? MountMatrix.parse(text) else { return 0 }
        require(matrix.values.allSatisfy(\.isFinite) && abs(matrix.determinant) > 1e-6, "\(matrix) accepted")
        let written = MountMatrix.text(matrix)
        require((try? MountMatrix.parse(written)) == matrix, "\(matrix) is written as '\(written)', which reads differently")
    case 1:
        guard let number = text.sysfsNumber else { return 0 }
        require(number.isFinite, "'\(text)' read as \(number)")
        require(number.sysfsText.sysfsNumber == number, "\(number) written as '\(number.sysfsText)' reads differently")
    default:
        guard let offer = SamplingRate.Offer(parsing: text) else { return 0 }
        for current in [nil, 0, 1, 12.5, SamplingRate.minimum - 1, SamplingRate.minimum, 400] as [Double?] {
            guard let rate = SamplingRate.choose(current: current, offer: offer) else { continue }
            require(rate.isFinite && rate > 0, "rate \(rate) chosen from \(offer)")
            if let current { require(rate > current && current < SamplingRate.minimum, "\(rate) chosen over \(current)") }
            switch offer {
            case .values(let values): require(values.contains(rate), "\(rate) is not among \(values)")
            case .range(let low, _, let high): require(rate >= low && rate <= high, "\(rate) is outside [\(low), \(high)]")
            }
        }
    }
    return 0
}
