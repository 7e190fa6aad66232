// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Linux system headers that Glibc's Swift module does not include.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>

// pipe2 (a pipe closed on exec, atomically) is a GNU extension Glibc's module hides.
int pipe2(int pipefd[2], int flags);
#include <sys/socket.h>
#include <sys/un.h>
#include <poll.h>

// accept4 is declared only under _GNU_SOURCE, which the C library module was not built with.
extern int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);

// struct ucred is likewise _GNU_SOURCE-only; this is its layout on Linux.
struct clinux_ucred { int pid; unsigned int uid; unsigned int gid; };

#include <spawn.h>
#include <sys/types.h>

// posix_spawn's working folder and closing of inherited descriptors (glibc 2.29, 2.34)
// and pidfd_open (2.36) are GNU extensions too.
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
extern int pidfd_open(pid_t pid, unsigned int flags);

// So are a thread's own id and its cores (the mask as bytes: cpu_set_t is GNU-only too).
extern pid_t gettid(void);
extern int sched_getaffinity(pid_t pid, size_t cpusetsize, void *mask);
// The policy of threads that run only on an otherwise idle core (sched(7)), GNU-only.
#define CLINUX_SCHED_IDLE 5

// The player's language (TiltSystem's Localization): glibc's gettext, which Glibc's
// module does not bring in; part of the C library, so nothing more is linked.
#include <libintl.h>
