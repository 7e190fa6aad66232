// SPDX-License-Identifier: GPL-3.0-or-later
import TiltWire

/// The tilt gauge's drawing (docs/gui.md): a circle whose edge is 1.5 × the trigger
/// angle, a ring at the release angle and one at the trigger angle, and a bubble
/// that sits where the tablet is lowered, the way the tiles would slide.
public struct GaugeGeometry: Equatable, Sendable {
    public let center: Point
    /// The outer circle.
    public let radius: Double
    public let releaseRadius: Double
    public let triggerRadius: Double
    public let bubbleCenter: Point
    public let bubbleRadius: Double

    public init(pose: PoseReport, in frame: Rect) {
        center = frame.center
        radius = min(frame.width, frame.height) / 2
        let span = max(1, 1.5 * pose.trigger)
        let scale = radius / span
        releaseRadius = pose.release * scale
        triggerRadius = pose.trigger * scale
        bubbleRadius = max(3, radius * 0.14)
        // Screen y grows downwards; a lowered top edge (y > 0) puts the bubble up.
        var dx = pose.x * scale
        var dy = -pose.y * scale
        let length = (dx * dx + dy * dy).squareRoot()
        let limit = radius - bubbleRadius
        if length > limit, length > 0 {
            dx *= limit / length
            dy *= limit / length
        }
        bubbleCenter = Point(x: center.x + dx, y: center.y + dy)
    }

    /// Horizontal spans (y, x from, x to) covering a disc, one per pixel row: how the
    /// painter fills circles with nothing but rectangles.
    public static func spans(center: Point, radius: Double) -> [(y: Double, from: Double, to: Double)] {
        guard radius > 0 else { return [] }
        let top = (center.y - radius).rounded(.down)
        let bottom = (center.y + radius).rounded(.up)
        return stride(from: top, to: bottom, by: 1).compactMap { y in
            let dy = y + 0.5 - center.y
            let squared = radius * radius - dy * dy
            guard squared > 0 else { return nil }
            let half = squared.squareRoot()
            return (y, center.x - half, center.x + half)
        }
    }
}
