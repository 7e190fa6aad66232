#pragma once
#include <libevdev/libevdev.h>
