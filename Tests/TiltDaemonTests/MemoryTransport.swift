import TiltCore
@testable import TiltDaemon
import TiltWire

/// An in-memory client: collects what the hub writes, and can stop reading.
final class MemoryTransport: ClientTransport {
    var received: [UInt8] = []
    var closed = false
    /// While false the transport takes nothing, like a client that does not read.
    var reading = true
    let peerDescription = "memory"

    func write(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard !closed else { return nil }
        guard reading else { return 0 }
        received += bytes
        return bytes.count
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
final class HubHarness {
    let hub: Hub
    var saves: [Int] = []
    var claims: [Bool] = []
    var autoSave = true

    init(game: Game = Game(puzzle: Puzzle(side: 4), detector: TiltDetector()), limits: Hub.Limits = Hub.Limits()) {
        hub = Hub(game: game, version: "test", limits: limits, log: Logger(level: .error) { _ in }, clock: { 100 })
        hub.requestSave = { [unowned self] game in
            saves.append(game.generation)
            if autoSave { hub.saveCompleted(generation: game.generation, error: nil) }
        }
        hub.claimSensor = { [unowned self] in claims.append($0) }
    }

    func attach() -> (Int, MemoryTransport) {
        let transport = MemoryTransport()
        let id = hub.attach(transport)!
        return (id, transport)
    }

    func send(_ line: String, from id: Int) {
        Array(line.utf8).withUnsafeBytes { hub.receive($0, from: id) }
    }
}
