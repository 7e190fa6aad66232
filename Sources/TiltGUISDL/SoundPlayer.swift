// SPDX-License-Identifier: GPL-3.0-or-later
import TiltGUI
import TiltSystem

/// Plays the board's sounds (docs/gui.md, "Sound") on the sound card, which it opens at
/// the first sound, not at start: a window that never makes a sound never touches the
/// card. The device is paused once its queue has played, and closed after a while
/// without sound, because SDL 2 keeps a paused device's thread feeding the card
/// silence, which would keep the card awake and wake the CPU every few milliseconds.
/// Without a card (none, a busy one, SDL's audio failing) the board plays on in
/// silence: one line says why, once, and the card is not tried again.
final class SoundPlayer {
    /// How long a device is kept open after its last sound: a burst of play does not
    /// reopen it for every move, and an idle window holds none for long.
    static let closeAfter = 2.0
    /// Beyond the queue: what the device still holds when its queue is empty (one buffer).
    private static let tail = 0.05

    private var device: AudioDevice?
    /// Set once the card could not be had: nothing is tried again.
    private var failed = false
    /// When the queued sound should have played, to pause the device then.
    private var playsUntil: Double?
    /// When the device fell silent, to close it `closeAfter` later.
    private var silentSince: Double?
    /// Each effect's samples at the device's rate, made once.
    private var made: [SoundEffect: [Int16]] = [:]
    private var madeRate = 0
    private let log: (String) -> Void

    init(log: @escaping (String) -> Void) {
        self.log = log
    }

    /// When the loop must wake to pause or close the device; nil when nothing is due.
    var nextDue: Double? {
        playsUntil ?? silentSince.map { $0 + Self.closeAfter }
    }

    /// Queues `effects` in order, at `now`.
    func play(_ effects: [SoundEffect], now: Double) {
        guard !effects.isEmpty, let device = opened() else { return }
        var queued = false
        for effect in effects where SoundCues.plays(effect, behind: device.queuedSeconds) {
            queued = device.queue(samples(effect, rate: device.rate)) || queued
        }
        guard queued else { return }
        device.pause(false)
        playsUntil = now + device.queuedSeconds + Self.tail
        silentSince = nil
    }

    /// Pauses the device once its queue has played, closes it after `closeAfter` of silence.
    func service(now: Double) {
        guard let device else { return }
        if let until = playsUntil, now >= until {
            let left = device.queuedSeconds
            if left > 0 {
                playsUntil = now + left + Self.tail
            } else {
                device.pause(true)
                playsUntil = nil
                silentSince = now
            }
        } else if playsUntil == nil, let since = silentSince, now >= since + Self.closeAfter {
            self.device = nil
            silentSince = nil
        }
    }

    private func opened() -> AudioDevice? {
        if let device { return device }
        guard !failed else { return nil }
        do throws(SDLError) {
            let device = try AudioDevice(rate: SoundEffect.preferredRate)
            self.device = device
            return device
        } catch {
            failed = true
            log(L("no sound: {0}", error.description))
            return nil
        }
    }

    private func samples(_ effect: SoundEffect, rate: Int) -> [Int16] {
        if rate != madeRate {
            made.removeAll()
            madeRate = rate
        }
        if let samples = made[effect] { return samples }
        let samples = effect.samples(rate: rate)
        made[effect] = samples
        return samples
    }
}
