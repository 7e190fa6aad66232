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
