#pragma once
#include <iio.h>
