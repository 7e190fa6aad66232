// SPDX-License-Identifier: GPL-3.0-or-later
/* The power-cut run's player (Tests/SystemLab/README.md, "Power cuts"): a client of
 * the installed daemon that plays until the machine loses power, and writes down
 * every line it sends and every line it is shown, with the time, to a log on the
 * host's share (whose writes reach the host at once, so the log survives the cut).
 *
 *   powercut-player SOCKET LOG SEED     plays
 *   powercut-player SOCKET LOG greet    logs the greeting (what the daemon serves) and ends
 *
 * Rounds of pipelined requests: eight tilts in random directions with an undo or
 * a redo among them, sometimes `configure` with random angles, sometimes a `new`
 * game of a random size, and sometimes a board one move from solved followed by the
 * tilt that solves it (so records change too). A round's replies are awaited before
 * the next round is sent. Log lines: "<seconds> > REQUEST", "<seconds> < LINE", and
 * "<seconds> . {}" while it waits.
 * It runs until it is killed (by the cut) or the daemon goes away (exit 1). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static int log_fd;
static uint64_t rng;

static uint32_t next_random(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void write_all(int fd, const char *data, size_t length) {
    while (length > 0) {
        ssize_t n = write(fd, data, length);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) { perror("write"); exit(1); }
        data += n;
        length -= (size_t)n;
    }
}

/* One log line: time, direction mark, text (without its newline). */
static void log_line(char mark, const char *text, size_t length) {
    char head[48];
    int n = snprintf(head, sizeof head, "%.6f %c ", now(), mark);
    char line[70000];
    if (length > sizeof line - (size_t)n - 1) length = sizeof line - (size_t)n - 1;
    memcpy(line, head, (size_t)n);
    memcpy(line + n, text, length);
    line[(size_t)n + length] = '\n';
    write_all(log_fd, line, (size_t)n + length + 1);
}

static int sock;
static char inbox[1 << 17];
static size_t held;
static int pending;   /* replies and errors still awaited */
static int greeted;   /* the greeting's last line, `settings`, arrived */

/* Reads what arrived, logs each whole line, counts the replies and errors. While
 * nothing arrives it logs a tick every 20 ms, so the log's last line is never more
 * than that before the cut. */
static void receive(void) {
    struct pollfd ready = { .fd = sock, .events = POLLIN };
    if (poll(&ready, 1, 20) == 0) {
        log_line('.', "{}", 2);
        return;
    }
    ssize_t n = read(sock, inbox + held, sizeof inbox - held);
    if (n < 0 && errno == EINTR) return;
    if (n <= 0) { fprintf(stderr, "the daemon closed the connection\n"); exit(1); }
    held += (size_t)n;
    char *start = inbox;
    char *end;
    while ((end = memchr(start, '\n', held - (size_t)(start - inbox))) != NULL) {
        log_line('<', start, (size_t)(end - start));
        if (memmem(start, (size_t)(end - start), "\"type\":\"settings\"", 17)) greeted = 1;
        if (strstr(start, "\"type\":\"reply\"") == start + 1 || strstr(start, "\"type\":\"error\"") == start + 1)
            pending--;
        start = end + 1;
    }
    held -= (size_t)(start - inbox);
    memmove(inbox, start, held);
}

static char outbox[8192];
static size_t queued;
static int request_id;

static void request(const char *format, ...) {
    char body[512];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(body, sizeof body, format, arguments);
    va_end(arguments);
    char line[600];
    int n = snprintf(line, sizeof line, "{%s,\"id\":%d}", body, ++request_id);
    log_line('>', line, (size_t)n);
    memcpy(outbox + queued, line, (size_t)n);
    outbox[queued + (size_t)n] = '\n';
    queued += (size_t)n + 1;
    pending++;
}

static void send_round(void) {
    write_all(sock, outbox, queued);
    queued = 0;
    while (pending > 0) receive();
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: powercut-player SOCKET LOG SEED\n");
        return 64;
    }
    rng = strtoull(argv[3], NULL, 10) * 2654435761u + 88172645463325252ull;
    log_fd = open(argv[2], O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (log_fd < 0) { perror(argv[2]); return 1; }
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    snprintf(address.sun_path, sizeof address.sun_path, "%s", argv[1]);
    /* Socket activation under emulation: the daemon may take seconds to greet. */
    for (int attempt = 0;; attempt++) {
        sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (connect(sock, (struct sockaddr *)&address, sizeof address) == 0) break;
        close(sock);
        if (attempt == 300) { perror("connect"); return 1; }
        usleep(100000);
    }
    /* The greeting ends with `settings` (docs/protocol.md). */
    while (!greeted) receive();
    if (strcmp(argv[3], "greet") == 0) return 0;
    static const char *directions[] = { "up", "down", "left", "right" };
    for (unsigned round = 1;; round++) {
        if (round % 29 == 0) {
            /* One move from solved on a side of 2 to 6: the tile right of the empty
             * cell, tilted left, solves it, and the first solve of a size is a record. */
            int side = 2 + (int)(next_random() % 5), cells = side * side;
            char board[400];
            size_t used = 0;
            for (int i = 0; i < cells; i++) {
                int value = i == cells - 2 ? cells - 1 : i == cells - 1 ? cells - 2 : i;
                used += (size_t)snprintf(board + used, sizeof board - used, "%s%d", i ? "," : "", value);
            }
            request("\"cmd\":\"new\",\"board\":[%s]", board);
            request("\"cmd\":\"tilt\",\"direction\":\"left\"");
        } else if (round % 11 == 0) {
            request("\"cmd\":\"new\",\"size\":%d,\"seed\":%u", 3 + (int)(next_random() % 3), next_random());
        }
        if (round % 5 == 0) {
            int trigger = 10 + (int)(next_random() % 30);
            int release = 1 + (int)(next_random() % (unsigned)(trigger - 2));
            request("\"cmd\":\"configure\",\"trigger\":%d,\"release\":%d", trigger, release);
        }
        for (int i = 0; i < 8; i++) {
            unsigned pick = next_random() % 10;
            if (pick == 0) request("\"cmd\":\"undo\"");
            else if (pick == 1) request("\"cmd\":\"redo\"");
            else request("\"cmd\":\"tilt\",\"direction\":\"%s\"", directions[pick % 4]);
        }
        send_round();
    }
}
