// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * lab-client: a protocol client that records what the daemon says.
 *
 *   lab-client SOCKET [TIMEOUT_S]
 *
 * Connects to the daemon's Unix socket (waiting up to TIMEOUT_S, default 30, for it
 * to appear), forwards every line read from standard input to the daemon, and
 * writes every line the daemon sends to standard output as "T LINE", T the
 * CLOCK_MONOTONIC time in ns at which read(2) returned the bytes that completed the
 * line. Exits when the daemon closes the connection.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int write_all(int fd, const char *data, size_t size)
{
    while (size > 0) {
        ssize_t n = write(fd, data, size);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        data += n;
        size -= (size_t)n;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: lab-client SOCKET [TIMEOUT_S]\n");
        return 64;
    }
    double timeout = argc > 2 ? atof(argv[2]) : 30;
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    snprintf(address.sun_path, sizeof address.sun_path, "%s", argv[1]);
    int fd = -1;
    uint64_t deadline = now_ns() + (uint64_t)(timeout * 1e9);
    for (;;) {
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0) { perror("socket"); return 1; }
        if (connect(fd, (struct sockaddr *)&address, sizeof address) == 0) break;
        int error = errno;
        close(fd);
        if ((error != ENOENT && error != ECONNREFUSED) || now_ns() > deadline) {
            fprintf(stderr, "lab-client: connect %s: %s\n", argv[1], strerror(error));
            return 1;
        }
        usleep(20000);
    }
    setvbuf(stdout, NULL, _IOFBF, 1 << 16);
    static char line[1 << 17];
    size_t used = 0;
    char input[4096];
    int input_open = 1;
    for (;;) {
        struct pollfd fds[2] = { { fd, POLLIN, 0 }, { 0, POLLIN, 0 } };
        if (poll(fds, input_open ? 2 : 1, -1) < 0) {
            if (errno == EINTR) continue;
            perror("poll");
            return 1;
        }
        if (fds[0].revents) {
            ssize_t n = read(fd, line + used, sizeof line - used);
            uint64_t t = now_ns();
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            used += (size_t)n;
            char *start = line, *end;
            while ((end = memchr(start, '\n', used - (size_t)(start - line)))) {
                printf("%llu %.*s\n", (unsigned long long)t, (int)(end - start), start);
                start = end + 1;
            }
            used -= (size_t)(start - line);
            memmove(line, start, used);
            if (used == sizeof line) { fprintf(stderr, "lab-client: line too long\n"); return 1; }
            fflush(stdout);
        }
        if (input_open && fds[1].revents) {
            ssize_t n = read(0, input, sizeof input);
            if (n <= 0) input_open = 0;
            else if (write_all(fd, input, (size_t)n) < 0) { perror("write"); return 1; }
        }
    }
    fflush(stdout);
    return 0;
}
