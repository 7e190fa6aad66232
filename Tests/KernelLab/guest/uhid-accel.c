// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * uhid-accel: an accelerometer on the kernel's real HID sensor hub stack.
 *
 * Creates a HID device through /dev/uhid whose report descriptor is a sensor hub
 * with one Accelerometer 3D, so the kernel binds hid-sensor-hub, which adds the
 * hid-sensor-accel-3d IIO device (buffer and trigger included). Readings go in as
 * input reports (UHID_INPUT2); the kernel's GET_REPORT and SET_REPORT requests
 * (property reads and writes, raw attribute reads) are answered by a thread of
 * their own, because the kernel waits for the answer while holding up the caller.
 * Commands on standard input: see tiltplay.h.
 */
#include "tiltplay.h"
#include "uhid-device.h"

#include <fcntl.h>
#include <linux/input.h>
#include <linux/uhid.h>
#include <pthread.h>
#include <unistd.h>

enum { FEATURE_ID = 1, INPUT_ID = 2 };

static const uint8_t descriptor[] = {
    0x05, 0x20,             /* Usage Page (Sensor) */
    0x09, 0x73,             /* Usage (Accelerometer 3D) */
    0xA1, 0x00,             /* Collection (Physical): 6.1 takes no Application here */
    0x85, FEATURE_ID,       /*   Report ID 1: properties */
    0x15, 0x00,             /*   Logical Minimum (0) */
    0x25, 0x05,             /*   Logical Maximum (5) */
    0x75, 0x08,             /*   Report Size (8) */
    0x95, 0x01,             /*   Report Count (1) */
    0x0A, 0x16, 0x03,       /*   Usage (Reporting State) */
    0xB1, 0x02,             /*   Feature (Data, Var, Abs) */
    0x0A, 0x19, 0x03,       /*   Usage (Power State) */
    0xB1, 0x02,             /*   Feature */
    0x15, 0x00,             /*   Logical Minimum (0) */
    0x27, 0xFF, 0xFF, 0xFF, 0x7F, /* Logical Maximum (2^31 - 1) */
    0x75, 0x20,             /*   Report Size (32) */
    0x55, 0x00,             /*   Unit Exponent (0): milliseconds */
    0x0A, 0x0E, 0x03,       /*   Usage (Report Interval) */
    0xB1, 0x02,             /*   Feature */
    0x26, 0xFF, 0x7F,       /*   Logical Maximum (32767) */
    0x75, 0x10,             /*   Report Size (16) */
    0x55, 0x0E,             /*   Unit Exponent (-2) */
    0x0A, 0x52, 0x14,       /*   Usage (Acceleration | Change Sensitivity Absolute) */
    0xB1, 0x02,             /*   Feature */
    0x85, INPUT_ID,         /*   Report ID 2: a reading */
    0x16, 0x01, 0x80,       /*   Logical Minimum (-32767) */
    0x26, 0xFF, 0x7F,       /*   Logical Maximum (32767) */
    0x75, 0x10,             /*   Report Size (16) */
    0x95, 0x01,             /*   Report Count (1) */
    0x55, 0x0E,             /*   Unit Exponent (-2): 0.01 g per unit */
    0x0A, 0x53, 0x04,       /*   Usage (Acceleration X): each axis its own Input item */
    0x81, 0x02,             /*   Input (Data, Var, Abs) */
    0x0A, 0x54, 0x04,       /*   Usage (Acceleration Y) */
    0x81, 0x02,             /*   Input */
    0x0A, 0x55, 0x04,       /*   Usage (Acceleration Z) */
    0x81, 0x02,             /*   Input */
    0xC0,                   /* End Collection */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* Report ID, reporting state, power state, interval (u32 ms), sensitivity (u16). */
static const uint8_t feature_defaults[9] = { FEATURE_ID, 0, 0, 10, 0, 0, 0, 1, 0 };
static uint8_t feature[9];
/* Report ID, x, y, z (s16, little-endian): the latest reading. */
static uint8_t input[7] = { INPUT_ID, 0, 0, 0, 0, 100, 0 };
static unsigned get_reports, set_reports;

static void answer_get(const struct uhid_get_report_req *request)
{
    struct uhid_event reply = { .type = UHID_GET_REPORT_REPLY };
    reply.u.get_report_reply.id = request->id;
    pthread_mutex_lock(&lock);
    if (request->rnum == FEATURE_ID && request->rtype == UHID_FEATURE_REPORT) {
        memcpy(reply.u.get_report_reply.data, feature, sizeof feature);
        reply.u.get_report_reply.size = sizeof feature;
    } else if (request->rnum == INPUT_ID && request->rtype == UHID_INPUT_REPORT) {
        memcpy(reply.u.get_report_reply.data, input, sizeof input);
        reply.u.get_report_reply.size = sizeof input;
    } else {
        reply.u.get_report_reply.err = EIO;
    }
    get_reports++;
    pthread_mutex_unlock(&lock);
    if (write_event(&reply) < 0) fprintf(stderr, "uhid-accel: GET_REPORT reply: %s\n", strerror(errno));
}

static void answer_set(const struct uhid_set_report_req *request)
{
    struct uhid_event reply = { .type = UHID_SET_REPORT_REPLY };
    reply.u.set_report_reply.id = request->id;
    pthread_mutex_lock(&lock);
    if (request->rnum == FEATURE_ID && request->rtype == UHID_FEATURE_REPORT && request->size <= sizeof feature) {
        memcpy(feature, request->data, request->size);
        feature[0] = FEATURE_ID;
    } else {
        reply.u.set_report_reply.err = EIO;
    }
    set_reports++;
    pthread_mutex_unlock(&lock);
    if (write_event(&reply) < 0) fprintf(stderr, "uhid-accel: SET_REPORT reply: %s\n", strerror(errno));
}

static void handle(const struct uhid_event *event)
{
    if (event->type == UHID_GET_REPORT) answer_get(&event->u.get_report);
    else if (event->type == UHID_SET_REPORT) answer_set(&event->u.set_report);
    /* START, STOP, OPEN, CLOSE, OUTPUT: nothing to do. */
}

static void *answer(void *unused)
{
    (void)unused;
    uhid_serve("uhid-accel", handle);
    return NULL;
}

static int create(void)
{
    pthread_mutex_lock(&lock);   /* a new device starts from its defaults */
    memcpy(feature, feature_defaults, sizeof feature);
    pthread_mutex_unlock(&lock);
    static const struct uhid_identity hub = {
        "tiltpuzzle lab sensor hub", "uhid-accel", descriptor, sizeof descriptor, BUS_USB, 0x1d6b, 0x7117, 0,
    };
    return uhid_create(&hub);
}

static int16_t units(double g)
{
    double v = round(g * 100);
    return (int16_t)(v > 32767 ? 32767 : v < -32767 ? -32767 : v);
}

static int send_reading(double x, double y, double z, uint64_t *written)
{
    struct uhid_event event = { .type = UHID_INPUT2 };
    int16_t axes[3] = { units(x), units(y), units(z) };
    pthread_mutex_lock(&lock);
    input[0] = INPUT_ID;
    for (int i = 0; i < 3; i++) {
        input[1 + 2 * i] = (uint8_t)(axes[i] & 0xff);
        input[2 + 2 * i] = (uint8_t)((uint16_t)axes[i] >> 8);
    }
    memcpy(event.u.input2.data, input, sizeof input);
    pthread_mutex_unlock(&lock);
    event.u.input2.size = sizeof input;
    *written = now_ns();
    return write_event(&event);
}

int main(int argc, char **argv)
{
    static const struct backend uhid = { create, uhid_destroy, send_reading, 0.01 };
    uhid_fd = open("/dev/uhid", O_RDWR | O_CLOEXEC);
    if (uhid_fd < 0) die("/dev/uhid");
    pthread_t thread;
    if (pthread_create(&thread, NULL, answer, NULL) != 0) die("pthread_create");
    int status = play(&uhid, argc, argv);
    pthread_mutex_lock(&lock);
    printf("reports get %u set %u\n", get_reports, set_reports);
    pthread_mutex_unlock(&lock);
    return status;
}
