#define _GNU_SOURCE
#include "cprocess.h"
#include <sys/syscall.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/signalfd.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

int cprocess_pidfd_open(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

int cprocess_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int cprocess_signalfd(const sigset_t *signals) {
    if (pthread_sigmask(SIG_BLOCK, signals, NULL) != 0) return -1;
    return signalfd(-1, signals, SFD_CLOEXEC | SFD_NONBLOCK);
}

int cprocess_read_signal(int fd) {
    struct signalfd_siginfo info;
    ssize_t got = read(fd, &info, sizeof info);
    return got == (ssize_t)sizeof info ? (int)info.ssi_signo : -1;
}
