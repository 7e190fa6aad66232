// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem

/// The data rate and its list of rates offered. Drivers name them every way the
/// ABI allows, each on its own: the rate per device (`sampling_frequency`) or per
/// channel (`in_accel_sampling_frequency`, or per axis), and the list per device
/// (`sampling_frequency_available`) or per channel (`in_accel_…_available`), not
/// always beside the rate (mma8452, bmc150: the rate per channel, the list per device).
struct RateAttribute {
    var read: () -> String?
    var write: (String) throws(Errno) -> Void
    var available: () -> String?

    /// The device's, else its first axis's (written to every axis that has its own
    /// file), as libiio's device and channel attributes had them (`IIOAttributes`).
    static func find(attributes: IIOAttributes, axes: [String]) -> RateAttribute? {
        guard let channel = axes.first else { return nil }
        let rate = "sampling_frequency", list = "sampling_frequency_available"
        let deviceList = attributes.deviceFile(list), channelList = attributes.channelFile(channel, list)
        func reading(_ file: String?) -> () -> String? { { file.flatMap(SysfsFile.read) } }
        func writing(_ files: [String]) -> (String) throws(Errno) -> Void {
            { (value: String) throws(Errno) in for file in files { try SysfsFile.write(file, value) } }
        }
        if let file = attributes.deviceFile(rate) {
            return RateAttribute(read: reading(file), write: writing([file]),
                                 available: { reading(deviceList)() ?? reading(channelList)() })
        }
        guard let file = attributes.channelFile(channel, rate) else { return nil }
        // Shared by the axes (one file), or one per axis: each file written once.
        var files: [String] = []
        for axis in axes {
            if let owned = attributes.channelFile(axis, rate), !files.contains(owned) { files.append(owned) }
        }
        return RateAttribute(read: reading(file), write: writing(files),
                             available: { reading(channelList)() ?? reading(deviceList)() })
    }
}

/// A driver's data rate: raised at start to what `SamplingRate.choose` picks, raised
/// further when polled reads wait for fresh data, and put back at stop through the
/// journal (docs/sensors.md, IIO, "Polling").
final class RateControl {
    /// A polled sample's reads may take this share of the poll interval; a driver whose
    /// reads wait for fresh data (st_sensors: two data periods per read) is sped up to it
    /// when they take more than `slowRead` of it.
    static let readShare = 0.25
    static let slowRead = 0.75
    /// Reads at a raised rate that take more than this share of the time before did not
    /// get faster: the rate found is put back.
    static let clearlyFaster = 0.7

    enum Judgement: Equatable {
        case pending
        /// Raised from this rate, because reads took this long.
        case raised(previousRate: Double, readTime: Double)
        case done
    }

    /// What the reads' duration asks of the source.
    enum Change: Equatable {
        case nothing
        case warning(String)
        /// Stop polling, set this rate, poll again, and log the line.
        case setRate(Double, String)
    }

    let deviceID: String
    let attribute: RateAttribute?
    private let journal: SysfsJournal
    /// The rate as found is in the journal (it is recorded once, at the first write).
    private var saved = false
    private(set) var judgement = Judgement.pending

    init(deviceID: String, attribute: RateAttribute?, journal: SysfsJournal) {
        self.deviceID = deviceID
        self.attribute = attribute
        self.journal = journal
    }

    /// The rate the driver says now, if it says one.
    func current() -> Double? { attribute?.read()?.sysfsNumber }

    /// Raises the rate to what `SamplingRate.choose` picks from the driver's offer for
    /// `minimum`; the rate in effect, if known, and a line for the log when it could
    /// not be set.
    func raise(minimum: Double) -> (rate: Double?, note: String?) {
        guard let attribute, let previousText = attribute.read() else { return (nil, nil) }
        let previous = previousText.sysfsNumber
        guard let offered = offer(),
              let target = SamplingRate.choose(current: previous, offer: offered, minimum: minimum) else { return (previous, nil) }
        let (done, note) = set(target)
        return (done ? target : previous, note)
    }

    /// Writes the rate (the rate as found goes into the journal first); not done, with
    /// a line for the log, when it cannot.
    func set(_ target: Double) -> (done: Bool, note: String?) {
        guard let attribute else { return (false, nil) }
        let found = saved ? nil : attribute.read()
        do {
            try attribute.write(target.sysfsText)
        } catch {
            return (false, "\(deviceID): cannot set sampling_frequency to \(target.sysfsText): \(error)")
        }
        if let found {
            saved = true
            journal.record { try? attribute.write(found) }
        }
        return (true, nil)
    }

    /// Judges the reads of a polled source once `took` is their mean duration: a
    /// driver whose raw reads wait for fresh data (st_sensors sleeps two data periods
    /// in each) cannot be polled faster than its data rate allows, so when the reads
    /// take more than `slowRead` of the poll interval, the rate goes up until they
    /// would take `readShare` of it. A slow machine (or bus) makes reads slow at any
    /// rate: if the reads at the new rate are not clearly faster, the rate found is
    /// put back. Then the judgement is done.
    func judge(readTime took: Double, interval: Double, rate: Double?, foreign: Bool) -> Change {
        let slow = "\(deviceID): reading in_accel_*_raw takes \(Int(took * 1000)) ms, polled every \(Int(interval * 1000)) ms"
        switch judgement {
        case .done:
            return .nothing
        case .raised(let previousRate, let previousTime):
            judgement = .done
            guard took > Self.clearlyFaster * previousTime, attribute != nil else { return .nothing }
            return .setRate(previousRate, slow + " at \(rate?.sysfsText ?? "?") Hz too: data rate put back to \(previousRate.sysfsText) Hz")
        case .pending:
            judgement = .done
            guard took > Self.slowRead * interval, !foreign else { return .nothing }
            guard let current = rate, let offered = offer(),
                  let target = SamplingRate.choose(current: nil, offer: offered,
                                                   minimum: current * took / (Self.readShare * interval)),
                  target > current else {
                return .warning(slow + " (the driver offers no faster data rate)")
            }
            judgement = .raised(previousRate: current, readTime: took)
            return .setRate(target, slow + ": data rate raised from \(current.sysfsText) to \(target.sysfsText) Hz"
                                   + " (a driver that waits for fresh data reads faster then)")
        }
    }

    private func offer() -> SamplingRate.Offer? {
        attribute?.available().flatMap(SamplingRate.Offer.init(parsing:))
    }
}
