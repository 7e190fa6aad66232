// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem
import TiltWire

/// The daemon's answers to its hub: saves go to the persister, hints to the worker,
/// claims to the sensor manager and interest to the client sockets. The daemon holds
/// the hub, the sensor manager and this, which holds the sensor manager too; the hub
/// holds this unowned, and this holds the client sockets weakly.
final class DaemonHubDelegate: HubDelegate {
    private let persister: Persister
    private let hints: HintWorker
    private let sensors: SensorManager
    /// Set by the daemon right after the sockets exist: they need the hub, which needs
    /// this first. Nothing attaches before then, so nothing asks for a socket's interest.
    weak var clients: ClientSockets?
    /// A claim changed the sensor's report (the daemon tells systemd its status).
    var claimChangedReport: () -> Void = {}

    init(persister: Persister, hints: HintWorker, sensors: SensorManager) {
        self.persister = persister
        self.hints = hints
        self.sensors = sensors
    }

    func save(_ game: Game) { persister.save(game, at: MonotonicClock.now()) }
    func claimSensor(_ claimed: Bool, at now: Double) -> SensorReport {
        let before = sensors.report
        let answer = sensors.claim(claimed, now: now)
        if answer != before { claimChangedReport() }
        return answer
    }
    func watchWritable(_ id: Int, _ on: Bool) { clients?.setInterest(id, writing: on) }
    func watchReadable(_ id: Int, _ on: Bool) { clients?.setInterest(id, reading: on) }
    func requestHint(_ job: HintJob) { hints.submit(job) }
}
