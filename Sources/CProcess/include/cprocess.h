// The process calls Swift's Glibc module does not expose.
#ifndef TOUCHGEST_CPROCESS_H
#define TOUCHGEST_CPROCESS_H

#include <signal.h>
#include <sys/types.h>

// pidfd_open(2): a descriptor that becomes readable when the process exits, so a
// single-threaded poll loop can reap children without SIGCHLD. -1 and errno on failure.
int cprocess_pidfd_open(pid_t pid);

// pipe2(2) with O_CLOEXEC on both ends (Swift's Glibc module hides pipe2).
int cprocess_pipe_cloexec(int fds[2]);

// Blocks `signals` for the calling thread and returns a signalfd(2) that becomes
// readable when one arrives, so the poll loop handles signals like input.
// -1 and errno on failure.
int cprocess_signalfd(const sigset_t *signals);

// Reads one pending signal from a signalfd; returns its number, or -1.
int cprocess_read_signal(int fd);

#endif
