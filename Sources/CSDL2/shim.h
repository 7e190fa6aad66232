#pragma once
// pkg-config sdl2 puts include/SDL2 on the path, as SDL's own headers expect.
#include <SDL.h>
