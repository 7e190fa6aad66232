// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * A Wii Remote on the Bluetooth bus, through /dev/uhid, for the kernel's own driver
 * (hid-wiimote), named as the remote names itself ("Nintendo RVL-CNT-01": a first
 * generation remote, without a Motion Plus inside). It answers what the driver asks:
 *
 *   - a status request (output 0x15) with a status report 0x20: no extension plugged,
 *     the first LED, the battery;
 *   - a memory read (output 0x17: address, size) with a data report 0x21: the bytes
 *     asked for, or, for the Motion Plus registers (0xA600xx) the driver polls every 4 s,
 *     error 7 (nothing there), as a remote without one answers;
 *   - a memory write (output 0x16) with an acknowledgement 0x22;
 *   - a report mode (output 0x12: flags, mode): it reports in that mode from then on,
 *     and says so on standard output ("mode 31"). The driver asks for 0x31 (buttons and
 *     accelerometer) while its accelerometer node is open, and 0x30 (buttons) after.
 *
 * It plays the tilt script of tiltplay.h as reports in the mode asked for: 0x31 carries
 * the accelerometer's upper 8 bits in bytes 3..5 and the low bits in the buttons'
 * spare bits, about 104 counts per g around 0x200.
 *
 * Readings come in the daemon's device frame; the remote's frame is X towards its left
 * side, Y towards its pointing end, Z out of the face, and it is held sideways, the
 * pointing end to the left (docs/sensors.md, "Game controllers"): (x, y, z) is sent as
 * (-y, -x, z).
 *
 *   uhid-wiimote [-p MS]    commands on standard input (tiltplay.h)
 */
#include "tiltplay.h"
#include "uhid-device.h"

#include <fcntl.h>
#include <linux/input.h>
#include <linux/uhid.h>
#include <pthread.h>
#include <unistd.h>

enum {
    OUT_MODE = 0x12, OUT_STATUS = 0x15, OUT_WRITE = 0x16, OUT_READ = 0x17,
    IN_STATUS = 0x20, IN_DATA = 0x21, IN_RETURN = 0x22, IN_BUTTONS = 0x30, IN_ACCEL = 0x31,
    COUNTS_PER_G = 104,
};

/* The remote's reports, vendor-defined, of their sizes after the id. */
#define REPORT(id, count, kind) 0x85, id, 0x09, id, 0x95, count, kind, 0x02
static const uint8_t descriptor[] = {
    0x05, 0x01, 0x09, 0x05, 0xA1, 0x01,
    0x06, 0x00, 0xFF, 0x15, 0x00, 0x26, 0xFF, 0x00, 0x75, 0x08,
    REPORT(0x10, 1, 0x91), REPORT(0x11, 1, 0x91), REPORT(OUT_MODE, 2, 0x91), REPORT(0x13, 1, 0x91),
    REPORT(0x14, 1, 0x91), REPORT(OUT_STATUS, 1, 0x91), REPORT(OUT_WRITE, 21, 0x91), REPORT(OUT_READ, 6, 0x91),
    REPORT(0x18, 21, 0x91), REPORT(0x19, 1, 0x91), REPORT(0x1A, 1, 0x91),
    REPORT(IN_STATUS, 6, 0x81), REPORT(IN_DATA, 21, 0x81), REPORT(IN_RETURN, 4, 0x81),
    REPORT(IN_BUTTONS, 2, 0x81), REPORT(IN_ACCEL, 5, 0x81),
    0xC0,
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint8_t mode = IN_BUTTONS;
static unsigned statuses, reads, writes, modes;

static void send_input(const uint8_t *data, size_t size)
{
    struct uhid_event event = { .type = UHID_INPUT2 };
    memcpy(event.u.input2.data, data, size);
    event.u.input2.size = (uint16_t)size;
    if (write_event(&event) < 0) fprintf(stderr, "uhid-wiimote: input: %s\n", strerror(errno));
}

static void handle(const struct uhid_event *event)
{
    if (event->type != UHID_OUTPUT) {
        if (event->type == UHID_GET_REPORT) {
            struct uhid_event reply = { .type = UHID_GET_REPORT_REPLY };
            reply.u.get_report_reply.id = event->u.get_report.id;
            reply.u.get_report_reply.err = EIO;
            write_event(&reply);
        } else if (event->type == UHID_SET_REPORT) {
            struct uhid_event reply = { .type = UHID_SET_REPORT_REPLY };
            reply.u.set_report_reply.id = event->u.set_report.id;
            write_event(&reply);
        }
        return;
    }
    const uint8_t *out = event->u.output.data;
    size_t size = event->u.output.size;
    if (size < 2) return;
    pthread_mutex_lock(&lock);
    switch (out[0]) {
    case OUT_STATUS: {
        statuses++;
        uint8_t report[7] = { IN_STATUS, 0, 0, 0x10, 0, 0, 0xC8 };   /* LED 1, battery 0xC8 */
        send_input(report, sizeof report);
        break;
    }
    case OUT_READ:
        if (size >= 7) {
            reads++;
            uint32_t address = (uint32_t)out[2] << 16 | (uint32_t)out[3] << 8 | out[4];
            unsigned length = (unsigned)out[5] << 8 | out[6];
            uint8_t report[22] = { IN_DATA, 0, 0, 0, out[3], out[4] };
            if ((address >> 8) == 0xA600) {
                report[3] = 0x07;                                    /* no Motion Plus */
            } else {
                report[3] = (uint8_t)(((length > 16 ? 16 : length) - 1) << 4);
            }
            send_input(report, sizeof report);
        }
        break;
    case OUT_WRITE: {
        writes++;
        uint8_t report[5] = { IN_RETURN, 0, 0, OUT_WRITE, 0 };
        send_input(report, sizeof report);
        break;
    }
    case OUT_MODE:
        if (size >= 3 && out[2] != mode) {
            mode = out[2];
            modes++;
            printf("mode %02x\n", mode);
        }
        break;
    }
    pthread_mutex_unlock(&lock);
}

static void *answer(void *unused)
{
    (void)unused;
    uhid_serve("uhid-wiimote", handle);
    return NULL;
}

static int create(void)
{
    static const struct uhid_identity remote = {
        "Nintendo RVL-CNT-01", "uhid-wiimote", descriptor, sizeof descriptor, BUS_BLUETOOTH, 0x057e, 0x0306, 0x0600,
    };
    pthread_mutex_lock(&lock);
    mode = IN_BUTTONS;
    pthread_mutex_unlock(&lock);
    return uhid_create(&remote);
}

static int counts(double g)
{
    double v = round(0x200 + g * COUNTS_PER_G);
    return (int)(v > 1023 ? 1023 : v < 0 ? 0 : v);
}

static int send_reading(double x, double y, double z, uint64_t *written)
{
    uint8_t report[6] = { 0 };
    int ax = counts(-y), ay = counts(-x), az = counts(z);
    pthread_mutex_lock(&lock);
    report[0] = mode == IN_ACCEL ? IN_ACCEL : IN_BUTTONS;
    pthread_mutex_unlock(&lock);
    /* The low bits: X's two in bits 5 and 6 of the first buttons byte, Y's and Z's
     * second bit in bits 5 and 6 of the second (their lowest is not sent). */
    report[1] = (uint8_t)((ax & 0x3) << 5);
    report[2] = (uint8_t)(((ay >> 1) & 0x1) << 5 | ((az >> 1) & 0x1) << 6);
    report[3] = (uint8_t)(ax >> 2);
    report[4] = (uint8_t)(ay >> 2);
    report[5] = (uint8_t)(az >> 2);
    *written = now_ns();
    if (report[0] == IN_BUTTONS) {
        report[1] = report[2] = 0;
        send_input(report, 3);
        return 0;
    }
    struct uhid_event event = { .type = UHID_INPUT2 };
    memcpy(event.u.input2.data, report, sizeof report);
    event.u.input2.size = sizeof report;
    return write_event(&event);
}

int main(int argc, char **argv)
{
    static const struct backend remote = { create, uhid_destroy, send_reading, 0.003 };
    setvbuf(stdout, NULL, _IOLBF, 0);
    uhid_fd = open("/dev/uhid", O_RDWR | O_CLOEXEC);
    if (uhid_fd < 0) die("/dev/uhid");
    pthread_t thread;
    if (pthread_create(&thread, NULL, answer, NULL) != 0) die("pthread_create");
    int status = play(&remote, argc, argv);
    pthread_mutex_lock(&lock);
    printf("reports status %u read %u write %u modes %u\n", statuses, reads, writes, modes);
    pthread_mutex_unlock(&lock);
    return status;
}
