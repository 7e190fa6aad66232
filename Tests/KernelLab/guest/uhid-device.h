// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * What the labs' fake HID devices share (uhid-accel, uhid-pad): the /dev/uhid
 * descriptor, one event written, and the device created from its descriptor and ids
 * or destroyed. A program opens /dev/uhid into uhid_fd and answers the kernel's
 * requests (GET_REPORT, SET_REPORT) on a thread of its own.
 */
#ifndef UHID_DEVICE_H
#define UHID_DEVICE_H

#include <errno.h>
#include <linux/uhid.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int uhid_fd = -1;

static int write_event(const struct uhid_event *event)
{
    ssize_t n = write(uhid_fd, event, sizeof *event);
    if (n == (ssize_t)sizeof *event) return 0;
    if (n >= 0) errno = EIO;
    return -1;
}

struct uhid_identity {
    const char *name, *phys;
    const uint8_t *descriptor;
    size_t descriptor_size;
    uint16_t bus;
    uint32_t vendor, product, version;
};

static int uhid_create(const struct uhid_identity *id)
{
    struct uhid_event event = { .type = UHID_CREATE2 };
    struct uhid_create2_req *req = &event.u.create2;
    snprintf((char *)req->name, sizeof req->name, "%s", id->name);
    snprintf((char *)req->phys, sizeof req->phys, "%s", id->phys);
    memcpy(req->rd_data, id->descriptor, id->descriptor_size);
    req->rd_size = (uint16_t)id->descriptor_size;
    req->bus = id->bus;
    req->vendor = id->vendor;
    req->product = id->product;
    req->version = id->version;
    return write_event(&event);
}

/* Hands each event the kernel sends to `handle`, until /dev/uhid fails. */
static void uhid_serve(const char *program, void (*handle)(const struct uhid_event *))
{
    struct uhid_event event;
    for (;;) {
        ssize_t n = read(uhid_fd, &event, sizeof event);
        if (n < 0) {
            if (errno == EINTR) continue;
            fprintf(stderr, "%s: read: %s\n", program, strerror(errno));
            return;
        }
        handle(&event);
    }
}

static int uhid_destroy(void)
{
    struct uhid_event event = { .type = UHID_DESTROY };
    return write_event(&event);
}

#endif
