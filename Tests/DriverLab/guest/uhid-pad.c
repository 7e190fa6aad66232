// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * A PlayStation controller on USB, through /dev/uhid, for the kernel's own driver: a
 * DualSense for hid-playstation, or (-m dualshock4, -m dualshock3) a DualShock 4 or a
 * DualShock 3 for hid-sony. It answers the feature reports the driver asks for while it
 * probes (DualSense: pairing info 0x09, the MAC address; firmware info 0x20; calibration
 * 0x05. DualShock 4: calibration 0x02, the MAC address 0x81, version info 0xA3.
 * DualShock 3: 0xF2, which holds the MAC address, and 0xF5, which with an output
 * report of one byte makes a Sixaxis on USB start reporting), and plays the tilt script
 * of tiltplay.h (create, destroy, rest, tilt...) as input reports 0x01.
 * hid-sony makes the DualShock 4's gamepad node through the HID core, from the
 * descriptor's own usages, and its motion node only once that one is configured: its
 * descriptor names sticks, a hat and buttons where the real one has them.
 *
 * Readings come in the daemon's device frame; the controller reports in its own (x
 * towards the right grip, y out of the face, z towards the player: docs/sensors.md,
 * "Game controllers"), so a reading (x, y, z) is sent as (x, z, -y), at 8192 per g.
 * The calibration report makes the driver's calibration the identity: each axis's
 * +1 g and -1 g points are +8192 and -8192, its bias 0. The DualShock 3 has no
 * calibration: its report 0x01 (49 bytes) holds the chip's 10-bit readings, big-endian,
 * 511 at 0 g and 113 per g, and hid-sony (sixaxis_parse_report) swaps Y and Z and
 * negates them into the DualShock 4's frame, so (x, y, z) in that frame is sent as
 * X 511 + 113 x, then 511 - 113 z, then 511 - 113 y.
 *
 *   uhid-pad [-m dualsense|dualshock4|dualshock3] [-p MS]    commands on standard input (tiltplay.h)
 */
#include "tiltplay.h"
#include "uhid-device.h"

#include <fcntl.h>
#include <linux/input.h>
#include <linux/uhid.h>
#include <pthread.h>
#include <unistd.h>

enum {
    INPUT_ID = 0x01, OUTPUT_ID = 0x02, CALIBRATION_ID = 0x05, PAIRING_ID = 0x09, FIRMWARE_ID = 0x20,
    INPUT_SIZE = 64, OUTPUT_SIZE = 63, CALIBRATION_SIZE = 41, PAIRING_SIZE = 20, FIRMWARE_SIZE = 64,
    UNITS_PER_G = 8192,
};

enum {
    DS4_CALIBRATION_ID = 0x02, DS4_OUTPUT_ID = 0x05, DS4_MAC_ID = 0x81, DS4_VERSION_ID = 0xA3,
    DS4_CALIBRATION_SIZE = 37, DS4_OUTPUT_SIZE = 32, DS4_MAC_SIZE = 7, DS4_VERSION_SIZE = 49,
};

/* A vendor-defined game pad with the driver's report sizes (sizes without the ID). */
static const uint8_t dualsense_descriptor[] = {
    0x05, 0x01,             /* Usage Page (Generic Desktop) */
    0x09, 0x05,             /* Usage (Game Pad) */
    0xA1, 0x01,             /* Collection (Application) */
    0x06, 0x00, 0xFF,       /*   Usage Page (Vendor 0xFF00) */
    0x15, 0x00,             /*   Logical Minimum (0) */
    0x26, 0xFF, 0x00,       /*   Logical Maximum (255) */
    0x75, 0x08,             /*   Report Size (8) */
    0x85, INPUT_ID,         /*   Report ID 1: the state */
    0x09, 0x20, 0x95, INPUT_SIZE - 1, 0x81, 0x02,          /* Usage, Report Count, Input */
    0x85, OUTPUT_ID,        /*   Report ID 2: rumble, lights */
    0x09, 0x21, 0x95, OUTPUT_SIZE - 1, 0x91, 0x02,         /* Output */
    0x85, CALIBRATION_ID,
    0x09, 0x22, 0x95, CALIBRATION_SIZE - 1, 0xB1, 0x02,    /* Feature */
    0x85, PAIRING_ID,
    0x09, 0x23, 0x95, PAIRING_SIZE - 1, 0xB1, 0x02,
    0x85, FIRMWARE_ID,
    0x09, 0x24, 0x95, FIRMWARE_SIZE - 1, 0xB1, 0x02,
    0xC0,                   /* End Collection */
};

/* The DualShock 4's input report 0x01 as the HID core maps it: four stick bytes, a
 * hat and 14 buttons, the triggers, then the rest (motion, touch) vendor-defined. */
static const uint8_t dualshock4_descriptor[] = {
    0x05, 0x01, 0x09, 0x05, 0xA1, 0x01,             /* Generic Desktop, Game Pad, Application */
    0x85, INPUT_ID,
    0x09, 0x30, 0x09, 0x31, 0x09, 0x32, 0x09, 0x35, /*   X, Y, Z, Rz: the sticks */
    0x15, 0x00, 0x26, 0xFF, 0x00, 0x75, 0x08, 0x95, 0x04, 0x81, 0x02,
    0x09, 0x39, 0x15, 0x00, 0x25, 0x07, 0x75, 0x04, 0x95, 0x01, 0x81, 0x42,   /* hat, null state */
    0x05, 0x09, 0x19, 0x01, 0x29, 0x0E, 0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x0E, 0x81, 0x02,
    0x06, 0x00, 0xFF, 0x09, 0x20, 0x75, 0x06, 0x95, 0x01, 0x81, 0x02,       /*   the counter */
    0x05, 0x01, 0x09, 0x33, 0x09, 0x34, 0x15, 0x00, 0x26, 0xFF, 0x00,       /*   Rx, Ry: the triggers */
    0x75, 0x08, 0x95, 0x02, 0x81, 0x02,
    0x06, 0x00, 0xFF, 0x09, 0x21, 0x95, INPUT_SIZE - 10, 0x81, 0x02,        /*   motion, touch, battery */
    0x85, DS4_OUTPUT_ID, 0x09, 0x22, 0x95, DS4_OUTPUT_SIZE - 1, 0x91, 0x02,
    0x85, DS4_CALIBRATION_ID, 0x09, 0x23, 0x95, DS4_CALIBRATION_SIZE - 1, 0xB1, 0x02,
    0x85, DS4_MAC_ID, 0x09, 0x24, 0x95, DS4_MAC_SIZE - 1, 0xB1, 0x02,
    0x85, DS4_VERSION_ID, 0x09, 0x25, 0x95, DS4_VERSION_SIZE - 1, 0xB1, 0x02,
    0xC0,
};

/* The DualShock 3's report 0x01 as the HID core maps it through hid-sony's
 * sixaxis_mapping: a reserved byte, 19 buttons and padding, the two sticks (X, Y, Rx,
 * Ry as Generic Desktop X, Y, Z, Rz), then the rest vendor-defined: the pressure of
 * the buttons, the battery at byte 30, the motion sensors at 41..48. */
enum { DS3_INPUT_SIZE = 49, DS3_F2_ID = 0xF2, DS3_F2_SIZE = 17, DS3_F5_ID = 0xF5, DS3_F5_SIZE = 8, DS3_UNITS_PER_G = 113 };
static const uint8_t dualshock3_descriptor[] = {
    0x05, 0x01, 0x09, 0x04, 0xA1, 0x01,             /* Generic Desktop, Joystick, Application */
    0x85, INPUT_ID,
    0x06, 0x00, 0xFF, 0x09, 0x20, 0x75, 0x08, 0x95, 0x01, 0x15, 0x00, 0x26, 0xFF, 0x00, 0x81, 0x03,
    0x05, 0x09, 0x19, 0x01, 0x29, 0x13, 0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x13, 0x81, 0x02,
    0x75, 0x01, 0x95, 0x0D, 0x81, 0x03,                                       /*   padding to byte 5 */
    0x05, 0x01, 0x09, 0x30, 0x09, 0x31, 0x09, 0x32, 0x09, 0x35,               /*   the sticks */
    0x15, 0x00, 0x26, 0xFF, 0x00, 0x75, 0x08, 0x95, 0x04, 0x81, 0x02,
    0x06, 0x00, 0xFF, 0x09, 0x21, 0x95, DS3_INPUT_SIZE - 10, 0x81, 0x02,    /*   pressures, battery, motion */
    0x85, DS3_F2_ID, 0x09, 0x22, 0x95, DS3_F2_SIZE - 1, 0xB1, 0x02,
    0x85, DS3_F5_ID, 0x09, 0x23, 0x95, DS3_F5_SIZE - 1, 0xB1, 0x02,
    0xC0,
};

static int dualshock4;   /* -m dualshock4 */
static int dualshock3;   /* -m dualshock3 */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned get_reports, outputs;
static uint32_t timestamp;   /* the controller's sensor clock, in units of 1/3 µs */

static void le16(uint8_t *at, int value) { at[0] = (uint8_t)(value & 0xff); at[1] = (uint8_t)((value >> 8) & 0xff); }
static void le32(uint8_t *at, uint32_t value) { le16(at, (int)(value & 0xffff)); le16(at + 2, (int)(value >> 16)); }

/* The calibration both drivers read, at the same offsets: gyro bias (pitch, yaw, roll)
 * 0; then each gyro axis's plus and minus points, the speed's plus and minus, and each
 * accelerometer axis's +1 g and -1 g. */
static void calibration(uint8_t *data)
{
    for (int axis = 0; axis < 3; axis++) { le16(data + 7 + 4 * axis, 1000); le16(data + 9 + 4 * axis, -1000); }
    le16(data + 19, 540);
    le16(data + 21, 540);
    for (int axis = 0; axis < 3; axis++) {
        le16(data + 23 + 4 * axis, UNITS_PER_G);
        le16(data + 25 + 4 * axis, -UNITS_PER_G);
    }
}

static const uint8_t mac[6] = { 0x17, 0x71, 0x00, 0x5E, 0x1A, 0x02 };   /* little-endian */

/* The feature report `id`, as the controller answers it; its size, or 0 if it has none. */
static size_t feature(uint8_t id, uint8_t *data)
{
    memset(data, 0, UHID_DATA_MAX);
    data[0] = id;
    if (dualshock3) {
        switch (id) {
        case DS3_F2_ID: memcpy(data + 4, mac, sizeof mac); return DS3_F2_SIZE;   /* the MAC from byte 4 */
        case DS3_F5_ID: return DS3_F5_SIZE;
        }
        return 0;
    }
    if (dualshock4) {
        switch (id) {
        case DS4_CALIBRATION_ID: calibration(data); return DS4_CALIBRATION_SIZE;
        case DS4_MAC_ID: memcpy(data + 1, mac, sizeof mac); return DS4_MAC_SIZE;
        case DS4_VERSION_ID:
            le16(data + 35, 0x0100);   /* hardware version */
            le16(data + 41, 0x8001);   /* firmware version */
            return DS4_VERSION_SIZE;
        }
        return 0;
    }
    switch (id) {
    case CALIBRATION_ID:
        calibration(data);
        return CALIBRATION_SIZE;
    case PAIRING_ID:
        memcpy(data + 1, mac, sizeof mac);
        return PAIRING_SIZE;
    case FIRMWARE_ID:
        le32(data + 24, 0x00000617);   /* hardware version */
        le32(data + 28, 0x0110002a);   /* firmware version */
        le16(data + 44, 0x0224);       /* update version: 2.24, rumble "v2" */
        return FIRMWARE_SIZE;
    }
    return 0;
}

static void answer_get(const struct uhid_get_report_req *request)
{
    struct uhid_event reply = { .type = UHID_GET_REPORT_REPLY };
    reply.u.get_report_reply.id = request->id;
    size_t size = request->rtype == UHID_FEATURE_REPORT ? feature(request->rnum, reply.u.get_report_reply.data) : 0;
    reply.u.get_report_reply.size = (uint16_t)size;
    if (size == 0) reply.u.get_report_reply.err = EIO;
    pthread_mutex_lock(&lock);
    get_reports++;
    pthread_mutex_unlock(&lock);
    if (write_event(&reply) < 0) fprintf(stderr, "uhid-pad: GET_REPORT reply: %s\n", strerror(errno));
}

static void handle(const struct uhid_event *event)
{
    if (event->type == UHID_GET_REPORT) {
        answer_get(&event->u.get_report);
    } else if (event->type == UHID_SET_REPORT) {
        struct uhid_event reply = { .type = UHID_SET_REPORT_REPLY };
        reply.u.set_report_reply.id = event->u.set_report.id;
        write_event(&reply);
    } else if (event->type == UHID_OUTPUT) {
        pthread_mutex_lock(&lock);
        outputs++;   /* lights and rumble: nothing to show */
        pthread_mutex_unlock(&lock);
    }
}

static void *answer(void *unused)
{
    (void)unused;
    uhid_serve("uhid-pad", handle);
    return NULL;
}

static int create(void)
{
    static const struct uhid_identity dualsense = {
        "Sony Interactive Entertainment DualSense Wireless Controller", "uhid-pad", dualsense_descriptor,
        sizeof dualsense_descriptor, BUS_USB, 0x054c, 0x0ce6, 0x0100,
    }, ds4 = {
        "Sony Computer Entertainment Wireless Controller", "uhid-pad", dualshock4_descriptor,
        sizeof dualshock4_descriptor, BUS_USB, 0x054c, 0x05c4, 0x0100,
    }, ds3 = {
        "Sony PLAYSTATION(R)3 Controller", "uhid-pad", dualshock3_descriptor,
        sizeof dualshock3_descriptor, BUS_USB, 0x054c, 0x0268, 0x0100,
    };
    return uhid_create(dualshock3 ? &ds3 : dualshock4 ? &ds4 : &dualsense);
}

static int units(double g)
{
    double v = round(g * UNITS_PER_G);
    return (int)(v > 32767 ? 32767 : v < -32768 ? -32768 : v);
}

static void be16(uint8_t *at, int value) { at[0] = (uint8_t)((value >> 8) & 0xff); at[1] = (uint8_t)(value & 0xff); }

static int ds3_units(double g)
{
    double v = round(511 + g * DS3_UNITS_PER_G);
    return (int)(v > 1023 ? 1023 : v < 0 ? 0 : v);
}

static int send_reading(double x, double y, double z, uint64_t *written)
{
    struct uhid_event event = { .type = UHID_INPUT2 };
    uint8_t *report = event.u.input2.data;
    report[0] = INPUT_ID;
    event.u.input2.size = INPUT_SIZE;
    if (dualshock3) {
        event.u.input2.size = DS3_INPUT_SIZE;
        for (int i = 6; i <= 9; i++) report[i] = 0x80;   /* sticks at rest */
        report[30] = 0xEE;                               /* charging, on the cable */
        /* In the DualShock 4's frame (x, z, -y): X, then the chip's Y and Z. */
        be16(report + 41, ds3_units(x));
        be16(report + 43, 1022 - ds3_units(-y));         /* 511 - 113 (-y) */
        be16(report + 45, 1022 - ds3_units(z));          /* 511 - 113 z */
        be16(report + 47, 498);                          /* gyroscope, still */
        *written = now_ns();
        return write_event(&event);
    }
    if (dualshock4) {
        for (int i = 1; i <= 4; i++) report[i] = 0x80;   /* sticks at rest */
        report[5] = 0x08;                                /* hat centred, no button */
        timestamp += (uint32_t)(period_us * 3 / 16);     /* in units of 16/3 µs */
        le16(report + 10, (int)(timestamp & 0xffff));
        /* gyroscope at 13..18: still; accelerometer at 19..24, in the controller's frame */
        le16(report + 19, units(x));
        le16(report + 21, units(z));
        le16(report + 23, units(-y));
        report[30] = 0x08;                               /* battery, no cable */
        *written = now_ns();
        return write_event(&event);
    }
    for (int i = 1; i <= 6; i++) report[i] = 0x80;   /* sticks and triggers at rest */
    report[0x08] = 0x08;                             /* hat centred, no button */
    /* gyroscope at 16..21: still; accelerometer at 22..27, in the controller's frame */
    le16(report + 22, units(x));
    le16(report + 24, units(z));
    le16(report + 26, units(-y));
    timestamp += (uint32_t)(period_us * 3);
    le32(report + 28, timestamp);
    report[33] = 0x80;                               /* both touch points inactive */
    report[37] = 0x80;
    report[53] = 0x08;                               /* battery 80 %, discharging */
    *written = now_ns();
    return write_event(&event);
}

int main(int argc, char **argv)
{
    static const struct backend pad = { create, uhid_destroy, send_reading, 0.003 };
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "-m")) {
            dualshock4 = !strcmp(argv[i + 1], "dualshock4");
            dualshock3 = !strcmp(argv[i + 1], "dualshock3");
        }
    uhid_fd = open("/dev/uhid", O_RDWR | O_CLOEXEC);
    if (uhid_fd < 0) die("/dev/uhid");
    pthread_t thread;
    if (pthread_create(&thread, NULL, answer, NULL) != 0) die("pthread_create");
    int status = play(&pad, argc, argv);
    pthread_mutex_lock(&lock);
    printf("reports get %u output %u\n", get_reports, outputs);
    pthread_mutex_unlock(&lock);
    return status;
}
