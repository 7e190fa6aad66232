// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The tilt script player shared by the lab's fake accelerometers (uhid-accel,
 * uinput-accel). A backend says how to create the device, destroy it and send one
 * reading; this file turns commands read from standard input, one per line, into
 * readings:
 *
 *   create | destroy        the device appears / goes away
 *   rest N                  N readings lying flat
 *   tilt DIR...             for each direction (up, down, left, right): a smooth
 *                           tilt to 31.25 degrees and back to flat
 *   cycle N                 N tilts going round right, down, left, up
 *   knock                   one reading of 1.5 g (a bump), then 150 ms flat
 *   quit
 *
 * and reports on standard output, one line each, times on CLOCK_MONOTONIC in ns:
 *
 *   created T | destroyed T
 *   fire N DIR T            tilt N crossed the detector's trigger angle: T is taken
 *                           just before the reading that crosses it was written
 *   knock T
 *   done K COMMAND          command K finished
 *   error MESSAGE           and the program exits 1
 *
 * Readings are in g, in the device frame of the daemon (x to the right edge, y to the
 * top edge, z out of the screen; flat reads (0, 0, +1)), with deterministic noise.
 * The ramp steps by 2.5 degrees and never lands within 1.25 degrees of the default
 * trigger (20) or release (10) angles, so which reading fires does not depend on
 * the noise: the one at 21.25 degrees.
 */
#ifndef TILTPLAY_H
#define TILTPLAY_H

#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct backend {
    int (*create)(void);
    int (*destroy)(void);
    /* Writes one reading (g); stores the time taken just before the write. */
    int (*send)(double x, double y, double z, uint64_t *written);
    double noise;   /* peak noise per axis, g */
};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void die(const char *what)
{
    printf("error %s: %s\n", what, strerror(errno));
    fflush(stdout);
    exit(1);
}

/* SplitMix64: the same noise on every run. */
static uint64_t noise_state = 0x7117;
static double noise(double peak)
{
    uint64_t z = (noise_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return ((double)(z >> 11) / 9007199254740992.0 * 2 - 1) * peak;
}

static long period_us = 5000;   /* between readings; -p MS changes it */
static const struct backend *device;
static int present;
static int tilts;

/* Sleeps after each reading rather than keeping a schedule: a stall of the machine
 * slows the motion down instead of making it jump (which would look like a bump). */
static void pause_reading(void)
{
    struct timespec ts = { period_us / 1000000, (period_us % 1000000) * 1000 };
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {}
}

static uint64_t reading(double x, double y, double z)
{
    uint64_t written = 0;
    double p = device->noise;
    if (device->send(x + noise(p), y + noise(p), z + noise(p), &written) < 0) die("send");
    pause_reading();
    return written;
}

static void pose(const char *dir, double degrees, double *x, double *y, double *z)
{
    double s = sin(degrees * M_PI / 180), c = cos(degrees * M_PI / 180);
    *x = 0; *y = 0; *z = c;
    if (!strcmp(dir, "right")) *x = -s;        /* right edge lowered */
    else if (!strcmp(dir, "left")) *x = s;
    else if (!strcmp(dir, "up")) *y = -s;      /* top edge lowered */
    else *y = s;                               /* down: bottom edge lowered */
}

static void rest(int n)
{
    while (n-- > 0) reading(0, 0, 1);
}

static void tilt(const char *dir)
{
    enum { steps = 13, hold = 3, after = 5 };
    double x, y, z;
    int fired = 0;
    tilts++;
    for (int k = 0; k < steps; k++) {
        double degrees = 1.25 + 2.5 * k;
        pose(dir, degrees, &x, &y, &z);
        uint64_t t = reading(x, y, z);
        if (!fired && degrees >= 20) {
            printf("fire %d %s %llu\n", tilts, dir, (unsigned long long)t);
            fired = 1;
        }
    }
    for (int k = 0; k < hold; k++) reading(x, y, z);
    for (int k = steps - 2; k >= 0; k--) {
        pose(dir, 1.25 + 2.5 * k, &x, &y, &z);
        reading(x, y, z);
    }
    rest(after);
}

static int valid_direction(const char *d)
{
    return !strcmp(d, "up") || !strcmp(d, "down") || !strcmp(d, "left") || !strcmp(d, "right");
}

static int play(const struct backend *backend, int argc, char **argv)
{
    static const char *round[] = { "right", "down", "left", "up" };
    char line[512];
    int commands = 0;
    device = backend;
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-p") && i + 1 < argc) period_us = (long)(atof(argv[++i]) * 1000);
    while (fgets(line, sizeof line, stdin)) {
        char *save = NULL, *word = strtok_r(line, " \t\r\n", &save);
        if (!word) continue;
        char command[32];
        snprintf(command, sizeof command, "%s", word);
        if (!strcmp(word, "quit")) break;
        if (!strcmp(word, "create")) {
            if (present) { errno = EEXIST; die("create"); }
            if (device->create() < 0) die("create");
            present = 1;
            printf("created %llu\n", (unsigned long long)now_ns());
        } else if (!strcmp(word, "destroy")) {
            if (device->destroy() < 0) die("destroy");
            present = 0;
            printf("destroyed %llu\n", (unsigned long long)now_ns());
        } else if (!present) {
            errno = ENODEV;
            die(word);
        } else if (!strcmp(word, "rest")) {
            char *n = strtok_r(NULL, " \t\r\n", &save);
            rest(n ? atoi(n) : 10);
        } else if (!strcmp(word, "tilt")) {
            char *d;
            while ((d = strtok_r(NULL, " \t\r\n", &save))) {
                if (!valid_direction(d)) { errno = EINVAL; die(d); }
                tilt(d);
            }
        } else if (!strcmp(word, "cycle")) {
            char *n = strtok_r(NULL, " \t\r\n", &save);
            int count = n ? atoi(n) : 4;
            for (int i = 0; i < count; i++) tilt(round[i % 4]);
        } else if (!strcmp(word, "knock")) {
            uint64_t t = reading(1.1, 0.05, 1.0);   /* |a| = 1.49 g: a bump, never a tilt */
            printf("knock %llu\n", (unsigned long long)t);
            rest(30);
        } else {
            errno = EINVAL;
            die(word);
        }
        printf("done %d %s\n", ++commands, command);
    }
    if (present) device->destroy();
    return 0;
}

#endif
