// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem

/// The daemon's answers to its hub: saves go to the persister, hints to the worker,
/// claims to the sensors and interest to the client sockets. The hub holds it unowned,
/// so nothing it holds keeps the hub alive in a cycle.
final class DaemonHubDelegate: HubDelegate {
    private let persister: Persister
    private let hints: HintWorker
    private let sensors: SensorManager
    /// Set by the daemon right after the sockets exist: they need the hub, which needs
    /// this first. Nothing attaches before then, so nothing asks for a socket's interest.
    weak var clients: ClientSockets?

    init(persister: Persister, hints: HintWorker, sensors: SensorManager) {
        self.persister = persister
        self.hints = hints
        self.sensors = sensors
    }

    func save(_ game: Game) { persister.save(game, at: MonotonicClock.now()) }
    func claimSensor(_ claimed: Bool) { sensors.claim(claimed) }
    func watchWritable(_ id: Int, _ on: Bool) { clients?.setInterest(id, writing: on) }
    func watchReadable(_ id: Int, _ on: Bool) { clients?.setInterest(id, reading: on) }
    func requestHint(_ job: HintJob) { hints.submit(job) }
}
