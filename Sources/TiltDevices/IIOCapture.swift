// SPDX-License-Identifier: GPL-3.0-or-later
/// One way an IIO source captures (docs/sensors.md, IIO): buffered (`BufferCapture`),
/// polled (`RawPolling`), or watching an enabled buffer's node before the source
/// decides whose it is (`BufferWatch`). A source has one at a time; when one ends, its
/// table of fallbacks (`IIOSource`) picks the next or stops.
protocol IIOCapture: AnyObject {
    /// What the loop waits on before the next `service`.
    var wait: SensorWait { get }
    /// What is ready at `now` (samples, lines for the log) and, once the capture is
    /// over, why.
    func service(now: Double) -> CaptureTurn
    /// Releases what the capture holds (the buffer, the reader thread, the watch).
    func stop()
}

/// What one `service` of a capture gave.
struct CaptureTurn: Equatable {
    var events: [SensorEvent] = []
    /// Set when the capture is over.
    var end: CaptureEnd?
}

/// Why a capture ended, which says what the source does next.
enum CaptureEnd: Equatable {
    /// The buffer delivered nothing in time: poll instead.
    case silent
    /// Polled reads wait for fresh data: set this data rate and poll again (the line
    /// says why).
    case slowReads(rate: Double, line: String)
    /// The watched buffer is another program's (the line says so): poll beside it.
    case foreignBuffer(String)
    /// Nobody opened the watched buffer's node: a stopped program's, to be taken back.
    case staleBuffer
    /// The device has gone.
    case removed
    /// Another program enabled the buffer since we started (the driver refuses raw
    /// reads meanwhile): busy, not lost.
    case busy
    case failed(String)
}
