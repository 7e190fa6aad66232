// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * uinput-accel: an evdev accelerometer through /dev/uinput.
 *
 * The device has EV_ABS ABS_X, ABS_Y and ABS_Z (±4 g, resolution 1024 units per g,
 * as the kernel's input ABI gives accelerometer resolution) and the property
 * INPUT_PROP_ACCELEROMETER, so evdev makes it an event node and udev's input_id
 * tags it ID_INPUT_ACCELEROMETER=1. A reading is one write of ABS_X, ABS_Y, ABS_Z
 * and SYN_REPORT. Commands on standard input: see tiltplay.h.
 */
#include "tiltplay.h"

#include <fcntl.h>
#include <linux/uinput.h>
#include <sys/ioctl.h>
#include <unistd.h>

enum { RESOLUTION = 1024, RANGE = 4 * RESOLUTION };

static int fd = -1;

static int create(void)
{
    fd = open("/dev/uinput", O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    if (ioctl(fd, UI_SET_EVBIT, EV_ABS) < 0 || ioctl(fd, UI_SET_EVBIT, EV_SYN) < 0
        || ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_ACCELEROMETER) < 0)
        return -1;
    for (int code = ABS_X; code <= ABS_Z; code++) {
        struct uinput_abs_setup abs = { .code = (uint16_t)code };
        abs.absinfo.minimum = -RANGE;
        abs.absinfo.maximum = RANGE;
        abs.absinfo.resolution = RESOLUTION;
        abs.absinfo.fuzz = 0;
        abs.absinfo.flat = 0;
        if (ioctl(fd, UI_SET_ABSBIT, code) < 0 || ioctl(fd, UI_ABS_SETUP, &abs) < 0) return -1;
    }
    struct uinput_setup setup = { .id = { .bustype = BUS_VIRTUAL, .vendor = 0x1d6b, .product = 0x7118, .version = 1 } };
    snprintf(setup.name, sizeof setup.name, "tiltpuzzle lab accelerometer");
    if (ioctl(fd, UI_DEV_SETUP, &setup) < 0 || ioctl(fd, UI_DEV_CREATE) < 0) return -1;
    return 0;
}

static int destroy(void)
{
    if (fd < 0) return 0;
    int status = ioctl(fd, UI_DEV_DESTROY);
    close(fd);
    fd = -1;
    return status;
}

static int32_t units(double g)
{
    double v = round(g * RESOLUTION);
    return (int32_t)(v > RANGE ? RANGE : v < -RANGE ? -RANGE : v);
}

static int send_reading(double x, double y, double z, uint64_t *written)
{
    struct input_event events[4];
    memset(events, 0, sizeof events);
    events[0].type = EV_ABS; events[0].code = ABS_X; events[0].value = units(x);
    events[1].type = EV_ABS; events[1].code = ABS_Y; events[1].value = units(y);
    events[2].type = EV_ABS; events[2].code = ABS_Z; events[2].value = units(z);
    events[3].type = EV_SYN; events[3].code = SYN_REPORT;
    *written = now_ns();
    ssize_t n = write(fd, events, sizeof events);
    if (n == (ssize_t)sizeof events) return 0;
    if (n >= 0) errno = EIO;
    return -1;
}

int main(int argc, char **argv)
{
    static const struct backend uinput = { create, destroy, send_reading, 0.005 };
    return play(&uinput, argc, argv);
}
