// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * iio-holder: another program that holds an IIO accelerometer, as a screen-rotation
 * service does: it sets the trigger, enables every scan element and the buffer, opens
 * the device node and reads it. On SIGTERM it lets go: closes the node, disables the
 * buffer, clears the trigger and the scan elements, prints "released", exits 0.
 *
 *   iio-holder IIODIR NODE TRIGGER [PERIOD_MS]
 *
 * With PERIOD_MS it keeps the node closed between reads and opens it only to read,
 * every PERIOD_MS, as iio-sensor-proxy does (700 ms).
 *
 * Prints "held T" (CLOCK_MONOTONIC ns) once it holds the node (or first read it), and
 * when it lets go "read N" with the bytes it read and "refused N", the opens of the
 * node that failed (another program had it).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stopping;

static void on_signal(int signal) { (void)signal; stopping = 1; }

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void put(const char *dir, const char *name, const char *value)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, value, strlen(value)) < 0) {
        printf("error %s: %s\n", path, strerror(errno));
        exit(1);
    }
    close(fd);
}

static void scan_elements(const char *dir, const char *value)
{
    char path[512];
    snprintf(path, sizeof path, "%s/scan_elements", dir);
    DIR *d = opendir(path);
    if (!d) return;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n > 3 && !strcmp(e->d_name + n - 3, "_en")) {
            char name[300];
            snprintf(name, sizeof name, "scan_elements/%s", e->d_name);
            put(dir, name, value);
        }
    }
    closedir(d);
}

int main(int argc, char **argv)
{
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: iio-holder IIODIR NODE TRIGGER [PERIOD_MS]\n");
        return 64;
    }
    const char *dir = argv[1], *node = argv[2], *trigger = argv[3];
    int period_ms = argc == 5 ? atoi(argv[4]) : 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    struct sigaction action = { .sa_handler = on_signal };
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);

    put(dir, "trigger/current_trigger", trigger);
    scan_elements(dir, "1");
    put(dir, "buffer/enable", "1");
    long total = 0, refused = 0;
    char buffer[4096];
    if (period_ms > 0) {
        printf("held %llu\n", (unsigned long long)now_ns());
        while (!stopping) {
            int fd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
            if (fd < 0) {
                refused++;
            } else {
                for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;) total += n;
                close(fd);
            }
            struct timespec pause = { period_ms / 1000, (long)(period_ms % 1000) * 1000000 };
            nanosleep(&pause, NULL);
        }
        put(dir, "buffer/enable", "0");
        scan_elements(dir, "0");
        put(dir, "trigger/current_trigger", "\n");
        printf("read %ld\nrefused %ld\nreleased %llu\n", total, refused, (unsigned long long)now_ns());
        return 0;
    }
    int fd = open(node, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        printf("error %s: %s\n", node, strerror(errno));
        return 1;
    }
    printf("held %llu\n", (unsigned long long)now_ns());
    while (!stopping) {
        struct pollfd p = { fd, POLLIN, 0 };
        if (poll(&p, 1, 100) > 0) {
            ssize_t n = read(fd, buffer, sizeof buffer);
            if (n > 0) total += n;
        }
    }
    close(fd);
    put(dir, "buffer/enable", "0");
    scan_elements(dir, "0");
    put(dir, "trigger/current_trigger", "\n");
    printf("read %ld\nrefused %ld\nreleased %llu\n", total, refused, (unsigned long long)now_ns());
    return 0;
}
