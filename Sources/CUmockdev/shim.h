#pragma once
#include <umockdev.h>
