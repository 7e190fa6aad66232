// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// SDL itself through its own module (CSDL2), so that SDL_image's include of SDL.h adds
// nothing here: SDL's declarations stay CSDL2's alone, not twins in two modules.
#include "../CSDL2/shim.h"
// PNG, JPEG, WebP and SVG files decoded into SDL surfaces (TiltGUISDL/ImageFile.swift).
#include <SDL2/SDL_image.h>
