// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// <SDL2/SDL.h>, not pkg-config's include path (see Package.swift): SDL's own headers
// include each other with quotes, so they find their neighbours either way.
#include <SDL2/SDL.h>
// The window's system handles: its Wayland connection (TiltGUISDL/WaylandOutputs.swift).
#include <SDL2/SDL_syswm.h>
