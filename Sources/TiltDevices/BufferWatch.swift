// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem

/// An enabled buffer whose node nobody held at start, watched until `deadline` for a
/// program that opens it now and then (docs/sensors.md, IIO, "A buffer in use"); it
/// delivers nothing, and ends with whose the buffer is.
final class BufferWatch: IIOCapture {
    let ownership: BufferOwnership
    let watch: OpenWatch
    let deadline: Double

    init(ownership: BufferOwnership, watch: OpenWatch, deadline: Double) {
        self.ownership = ownership
        self.watch = watch
        self.deadline = deadline
    }

    var wait: SensorWait { .readableUntil(watch.descriptor, deadline) }

    func service(now: Double) -> CaptureTurn {
        switch ownership.verdict(watch, now: now, deadline: deadline) {
        case nil: CaptureTurn()
        case .foreign(let line)?: CaptureTurn(end: .foreignBuffer(line))
        case .stale?: CaptureTurn(end: .staleBuffer)
        }
    }

    func stop() { watch.close() }
}
