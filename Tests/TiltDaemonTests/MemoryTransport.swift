// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
@testable import TiltDaemon
import TiltWire

/// An in-memory client: collects what the hub writes, and can stop reading.
final class MemoryTransport: ClientTransport {
    var received: [UInt8] = []
    var closed = false
    /// While false the transport takes nothing, like a client that does not read.
    var reading = true
    /// The most one write takes, like a socket buffer that is nearly full.
    var takeAtMost = Int.max
    let peerDescription = "memory"

    func write(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard !closed else { return nil }
        guard reading else { return 0 }
        let taken = min(bytes.count, takeAtMost)
        received += bytes[..<taken]
        return taken
    }

    func close() { closed = true }

    /// Every complete line received so far, parsed.
    var messages: [JSONValue] {
        received.split(separator: UInt8(ascii: "\n")).map { line in
            line.withUnsafeBufferPointer { try! JSONParser.parse($0) }
        }
    }

    func types() -> [String] { messages.compactMap { $0["type"]?.string } }

    func clear() { received.removeAll() }
}

/// A hub with a solved 4×4 game, a manual save pipeline and a fixed clock.
final class HubHarness: HubDelegate {
    private let game: Game
    private let limits: Hub.Limits
    /// Made on first use: the hub needs its delegate, this harness, from the start.
    private(set) lazy var hub = Hub(game: game, version: "test", limits: limits, log: Logger(level: .error) { _ in },
                                    clock: { 100 }, delegate: self)
    var saves: [Int] = []
    var claims: [Bool] = []
    /// Answers a claim (nil: the sensor's report stays as it is).
    var answerClaim: ((_ claimed: Bool, _ now: Double) -> SensorReport)?
    /// What the hub asked about reading each client's socket, in order.
    var readWatch: [(id: Int, on: Bool)] = []
    var autoSave = true
    /// Where hints go (`collectHints`); nowhere until a test asks.
    var hints: HintJobs?

    init(game: Game = Game(puzzle: Puzzle(side: 4), detector: TiltDetector()), limits: Hub.Limits = Hub.Limits()) {
        self.game = game
        self.limits = limits
    }

    func save(_ game: Game) {
        saves.append(game.generation)
        if autoSave { hub.saveCompleted(generation: game.generation, failure: nil) }
    }

    func claimSensor(_ claimed: Bool, at now: Double) -> SensorReport {
        claims.append(claimed)
        return answerClaim?(claimed, now) ?? hub.sensor
    }
    func watchReadable(_ id: Int, _ on: Bool) { readWatch.append((id, on)) }
    /// Memory transports always take what they can: nothing to watch.
    func watchWritable(_ id: Int, _ on: Bool) {}
    func requestHint(_ job: HintJob) { hints?.waiting.append(job) }

    func attach() -> (Int, MemoryTransport) {
        let transport = MemoryTransport()
        let id = hub.attach(transport)!
        return (id, transport)
    }

    func send(_ line: String, from id: Int) {
        Array(line.utf8).withUnsafeBytes { hub.receive($0, from: id) }
    }
}
