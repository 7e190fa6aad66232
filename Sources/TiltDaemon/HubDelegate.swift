// SPDX-License-Identifier: GPL-3.0-or-later
import TiltWire

/// What the hub asks of the program around it (the daemon, or a test). Every request
/// is a requirement, so an output nobody answers does not compile instead of doing
/// nothing; the daemon answers them with its persister, hint worker, sensors and sockets.
public protocol HubDelegate: AnyObject {
    /// Save `game`; answer with `Hub.saveCompleted`.
    func save(_ game: Game)
    /// True when the first client attaches, false when the last one leaves; answers with
    /// the sensor's report once the claim took effect (nothing calls back into the hub
    /// meanwhile).
    func claimSensor(_ claimed: Bool, at now: Double) -> SensorReport
    /// A session needs (true) or no longer needs (false) to be told when it can write.
    func watchWritable(_ id: Int, _ on: Bool)
    /// A session wants (true) or no longer wants (false) its socket read: it was
    /// paused or resumed, its input ended, or it is closing.
    func watchReadable(_ id: Int, _ on: Bool)
    /// Compute a hint off the loop; answer through `Hub.hintsAnswered` (docs/protocol.md,
    /// "Hints"). The daemon hands it to its `HintWorker`; tests to a solver of their own.
    func requestHint(_ job: HintJob)
}
