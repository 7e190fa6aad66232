// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * A Nintendo Switch Pro Controller on USB, through /dev/uhid, for the kernel's own
 * driver (hid-nintendo). It does what the driver waits for while it probes:
 *
 *   - USB commands (output 0x80 CMD): the handshake 0x02 and the baud rate 0x03 are
 *     answered with input 0x81 CMD; "no timeout" 0x04 is not answered, as the
 *     controller does not;
 *   - subcommands (output 0x01: packet number, rumble, subcommand, data) are answered
 *     with input 0x21, the acknowledgement and the subcommand's id: device info 0x02
 *     (firmware, type 3 = Pro Controller, the MAC address), SPI flash reads 0x10 (the
 *     address, size and bytes of its flash: no user calibration, factory stick
 *     calibration, and factory IMU calibration with offsets 0 and scale 16384, which
 *     makes the driver's accelerometer calibration the identity), and an empty
 *     acknowledgement for the rest (report mode, rumble, IMU, lights);
 *
 * and plays the tilt script of tiltplay.h as full reports 0x30, each holding three IMU
 * samples (accelerometer then gyroscope, little-endian), at 4096 per g.
 *
 * Readings come in the daemon's device frame; the driver's frame is X towards the
 * triggers, Y to the left, Z out of the face (docs/sensors.md, "Game controllers"),
 * and the controller is held by its grips: (x, y, z) is sent as (y, -x, z).
 *
 *   uhid-nintendo [-p MS]    commands on standard input (tiltplay.h)
 */
#include "tiltplay.h"
#include "uhid-device.h"

#include <fcntl.h>
#include <linux/input.h>
#include <linux/uhid.h>
#include <pthread.h>
#include <unistd.h>

enum {
    OUT_SUBCMD = 0x01, OUT_RUMBLE = 0x10, OUT_USB = 0x80,
    IN_SUBCMD_REPLY = 0x21, IN_FULL = 0x30, IN_USB = 0x81,
    REPORT_SIZE = 64, UNITS_PER_G = 4096,
    SUBCMD_DEV_INFO = 0x02, SUBCMD_SPI_READ = 0x10,
    USB_HANDSHAKE = 0x02, USB_BAUDRATE = 0x03,
};

/* Vendor-defined reports of the controller's sizes: inputs 0x21, 0x30, 0x81; outputs
 * 0x01, 0x10, 0x80 (63 bytes after the id). */
static const uint8_t descriptor[] = {
    0x05, 0x01, 0x09, 0x05, 0xA1, 0x01,             /* Generic Desktop, Game Pad, Application */
    0x06, 0x01, 0xFF, 0x15, 0x00, 0x26, 0xFF, 0x00, 0x75, 0x08, 0x95, REPORT_SIZE - 1,
    0x85, IN_SUBCMD_REPLY, 0x09, 0x21, 0x81, 0x02,
    0x85, IN_FULL, 0x09, 0x30, 0x81, 0x02,
    0x85, IN_USB, 0x09, 0x81, 0x81, 0x02,
    0x85, OUT_SUBCMD, 0x09, 0x01, 0x91, 0x02,
    0x85, OUT_RUMBLE, 0x09, 0x10, 0x91, 0x02,
    0x85, OUT_USB, 0x09, 0x80, 0x91, 0x02,
    0xC0,
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned usb_commands, subcommands, spi_reads;
static uint8_t timer;   /* the report counter */

static void le16(uint8_t *at, int value) { at[0] = (uint8_t)(value & 0xff); at[1] = (uint8_t)((value >> 8) & 0xff); }

/* The controller's SPI flash, as far as the driver reads it. */
static void flash(uint32_t address, uint8_t size, uint8_t *out)
{
    uint8_t image[0x40] = { 0 };   /* 0x6020..0x605F */
    memset(out, 0xFF, size);       /* erased flash: no user calibration magic (0xB2 0xA1) */
    if (address < 0x6020 || address + size > 0x6060) return;
    /* Factory IMU calibration at 0x6020: accelerometer offsets 0, scales 16384 (the
     * driver's default, which makes its calibration the identity); gyroscope offsets 0,
     * scales 13371. */
    for (int i = 0; i < 3; i++) {
        le16(image + 6 + 2 * i, 16384);
        le16(image + 18 + 2 * i, 13371);
    }
    /* Factory stick calibration: left at 0x603D (above, centre, below), right at 0x6046
     * (centre, below, above), each pair of 12-bit values in three bytes. */
    static const uint8_t left[9] = { 0xDC, 0x55, 0x5D, 0xD0, 0x07, 0x7D, 0xDC, 0xC5, 0x5D };
    static const uint8_t right[9] = { 0xD0, 0x07, 0x7D, 0xDC, 0xC5, 0x5D, 0xDC, 0xC5, 0x5D };
    memcpy(image + 0x1D, left, sizeof left);
    memcpy(image + 0x26, right, sizeof right);
    memcpy(out, image + (address - 0x6020), size);
}

static void header(uint8_t *report, uint8_t id)
{
    report[0] = id;
    report[1] = timer++;
    report[2] = 0x91;                                            /* battery full, USB powered */
    report[6] = 0x00; report[7] = 0x08; report[8] = 0x80;        /* left stick centred (2048) */
    report[9] = 0x00; report[10] = 0x08; report[11] = 0x80;      /* right stick centred */
}

static void send_input(const uint8_t *data)
{
    struct uhid_event event = { .type = UHID_INPUT2 };
    memcpy(event.u.input2.data, data, REPORT_SIZE);
    event.u.input2.size = REPORT_SIZE;
    if (write_event(&event) < 0) fprintf(stderr, "uhid-nintendo: input: %s\n", strerror(errno));
}

static const uint8_t mac[6] = { 0x98, 0xB6, 0xE9, 0x17, 0x71, 0x02 };

static void answer_subcommand(const uint8_t *out, size_t size)
{
    if (size < 11) return;
    uint8_t reply[REPORT_SIZE] = { 0 };
    uint8_t id = out[10];
    header(reply, IN_SUBCMD_REPLY);
    reply[13] = 0x80;   /* ACK */
    reply[14] = id;
    uint8_t *data = reply + 15;
    if (id == SUBCMD_DEV_INFO) {
        data[0] = 0x04; data[1] = 0x33;   /* firmware 4.33 */
        data[2] = 0x03;                   /* Pro Controller */
        data[3] = 0x02;
        memcpy(data + 4, mac, sizeof mac);
        reply[13] = 0x82;
    } else if (id == SUBCMD_SPI_READ && size >= 16) {
        uint32_t address = (uint32_t)out[11] | (uint32_t)out[12] << 8 | (uint32_t)out[13] << 16 | (uint32_t)out[14] << 24;
        uint8_t length = out[15] > 29 ? 29 : out[15];
        memcpy(data, out + 11, 5);
        flash(address, length, data + 5);
        reply[13] = 0x90;
        pthread_mutex_lock(&lock);
        spi_reads++;
        pthread_mutex_unlock(&lock);
    }
    pthread_mutex_lock(&lock);
    subcommands++;
    pthread_mutex_unlock(&lock);
    send_input(reply);
}

static void handle(const struct uhid_event *event)
{
    if (event->type == UHID_OUTPUT) {
        const uint8_t *out = event->u.output.data;
        size_t size = event->u.output.size;
        if (size >= 2 && out[0] == OUT_USB) {
            pthread_mutex_lock(&lock);
            usb_commands++;
            pthread_mutex_unlock(&lock);
            if (out[1] == USB_HANDSHAKE || out[1] == USB_BAUDRATE) {
                uint8_t reply[REPORT_SIZE] = { IN_USB, out[1] };
                send_input(reply);
            }
        } else if (size >= 1 && out[0] == OUT_SUBCMD) {
            answer_subcommand(out, size);
        }
    } else if (event->type == UHID_GET_REPORT) {
        struct uhid_event reply = { .type = UHID_GET_REPORT_REPLY };
        reply.u.get_report_reply.id = event->u.get_report.id;
        reply.u.get_report_reply.err = EIO;
        write_event(&reply);
    } else if (event->type == UHID_SET_REPORT) {
        struct uhid_event reply = { .type = UHID_SET_REPORT_REPLY };
        reply.u.set_report_reply.id = event->u.set_report.id;
        write_event(&reply);
    }
}

static void *answer(void *unused)
{
    (void)unused;
    uhid_serve("uhid-nintendo", handle);
    return NULL;
}

static int create(void)
{
    static const struct uhid_identity pro = {
        "Nintendo Co., Ltd. Pro Controller", "uhid-nintendo", descriptor, sizeof descriptor,
        BUS_USB, 0x057e, 0x2009, 0x0210,
    };
    return uhid_create(&pro);
}

static int units(double g)
{
    double v = round(g * UNITS_PER_G);
    return (int)(v > 32767 ? 32767 : v < -32768 ? -32768 : v);
}

static int send_reading(double x, double y, double z, uint64_t *written)
{
    uint8_t report[REPORT_SIZE] = { 0 };
    header(report, IN_FULL);
    for (int i = 0; i < 3; i++) {   /* three samples, 12 bytes each, from byte 13 */
        uint8_t *sample = report + 13 + 12 * i;
        le16(sample + 0, units(y));
        le16(sample + 2, units(-x));
        le16(sample + 4, units(z));
    }
    *written = now_ns();
    struct uhid_event event = { .type = UHID_INPUT2 };
    memcpy(event.u.input2.data, report, REPORT_SIZE);
    event.u.input2.size = REPORT_SIZE;
    return write_event(&event);
}

int main(int argc, char **argv)
{
    static const struct backend pad = { create, uhid_destroy, send_reading, 0.003 };
    uhid_fd = open("/dev/uhid", O_RDWR | O_CLOEXEC);
    if (uhid_fd < 0) die("/dev/uhid");
    pthread_t thread;
    if (pthread_create(&thread, NULL, answer, NULL) != 0) die("pthread_create");
    int status = play(&pad, argc, argv);
    pthread_mutex_lock(&lock);
    printf("reports usb %u subcommands %u spi %u\n", usb_commands, subcommands, spi_reads);
    pthread_mutex_unlock(&lock);
    return status;
}
