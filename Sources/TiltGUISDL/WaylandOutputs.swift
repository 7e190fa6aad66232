// SPDX-License-Identifier: GPL-3.0-or-later
import CWayland
import TiltCore
import TiltGUI

/// The compositor's outputs and how each is turned, heard on the Wayland connection
/// SDL already has (docs/gui.md, "Rotation"). SDL 2 reads an output's transform only
/// until the window opens: with xdg-output it ignores every later `done`, so a turn
/// while the board runs would never reach it. These listeners live on SDL's default
/// queue, so SDL's own event pump calls them on the loop's thread; `changed` is told.
final class WaylandOutputs {
    /// One wl_output: where it is in the compositor's space and its transform.
    private struct Output {
        var proxy: OpaquePointer
        var x: Int32 = 0
        var y: Int32 = 0
        var transform: Int32 = 0
    }

    private let registry: OpaquePointer
    private var outputs: [UInt32: Output] = [:]
    private let changed: () -> Void

    /// Listens on `display` (SDL's `wl_display`); nil when the registry cannot be had.
    init?(display: OpaquePointer, changed: @escaping () -> Void) {
        guard let registry = wl_display_get_registry(display) else { return nil }
        self.registry = registry
        self.changed = changed
        let context = Unmanaged.passUnretained(self).toOpaque()
        wl_registry_add_listener(registry, &Self.registryListener, context)
        // The globals, then each output's first description.
        wl_display_roundtrip(display)
        wl_display_roundtrip(display)
    }

    deinit {
        for output in outputs.values { wl_output_destroy(output.proxy) }
        wl_registry_destroy(registry)
    }

    /// The rotation of the output at (x, y) in the compositor's space (the window's
    /// display, as SDL places it), or of the only one; nil when no output matches.
    func rotation(atX x: Int32, y: Int32) -> ScreenRotation? {
        let match = outputs.values.first { $0.x == x && $0.y == y } ?? (outputs.count == 1 ? outputs.values.first : nil)
        return match.map { ScreenFollower.rotation(waylandTransform: Int($0.transform)) }
    }

    // MARK: Listeners

    private static func from(_ data: UnsafeMutableRawPointer?) -> WaylandOutputs {
        Unmanaged<WaylandOutputs>.fromOpaque(data!).takeUnretainedValue()
    }

    nonisolated(unsafe) private static var registryListener = wl_registry_listener(
        global: { data, registry, name, interface, version in
            guard let interface, String(cString: interface) == "wl_output", let registry else { return }
            let outputs = WaylandOutputs.from(data)
            // Version 2 has `done`, after which the description is whole.
            guard let proxy = tilt_wl_bind_output(registry, name, min(version, 2)) else { return }
            outputs.outputs[name] = Output(proxy: proxy)
            wl_output_add_listener(proxy, &WaylandOutputs.outputListener, data)
        },
        global_remove: { data, _, name in
            let outputs = WaylandOutputs.from(data)
            guard let gone = outputs.outputs.removeValue(forKey: name) else { return }
            wl_output_destroy(gone.proxy)
            outputs.changed()
        })

    nonisolated(unsafe) private static var outputListener = wl_output_listener(
        geometry: { data, proxy, x, y, _, _, _, _, _, transform in
            let outputs = WaylandOutputs.from(data)
            guard let name = outputs.outputs.first(where: { $0.value.proxy == proxy })?.key else { return }
            outputs.outputs[name]?.x = x
            outputs.outputs[name]?.y = y
            outputs.outputs[name]?.transform = transform
        },
        mode: { _, _, _, _, _, _ in },
        done: { data, _ in WaylandOutputs.from(data).changed() },
        scale: { _, _, _ in },
        name: nil,
        description: nil)
}
