// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// libwayland-client, for the outputs' transforms on the connection SDL already has
// (TiltGUISDL/WaylandOutputs.swift). The interface objects are C globals whose address
// libwayland keeps, so they are handed over as pointers, never copied into Swift.
#include <wayland-client.h>

static inline struct wl_output *tilt_wl_bind_output(struct wl_registry *registry, uint32_t name, uint32_t version) {
    return (struct wl_output *)wl_registry_bind(registry, name, &wl_output_interface, version);
}
