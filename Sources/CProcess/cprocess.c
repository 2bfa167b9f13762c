#define _GNU_SOURCE
#include <sys/ioctl.h>
#include "cprocess.h"
#include <sys/syscall.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <malloc.h>
#include <sys/mman.h>
#include <sys/epoll.h>
#include <sys/un.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

int cprocess_pidfd_open(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

pid_t cprocess_thread_id(void) {
    return (pid_t)syscall(SYS_gettid);
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

int cprocess_set_pipe_size(int fd, int bytes) {
    return fcntl(fd, F_SETPIPE_SZ, bytes);
}

static int fill_address(struct sockaddr_un *address, const char *path) {
    memset(address, 0, sizeof *address);
    address->sun_family = AF_UNIX;
    if (strlen(path) >= sizeof address->sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(address->sun_path, path);
    return 0;
}

int cprocess_unix_listen(const char *path, int backlog) {
    struct sockaddr_un address;
    if (fill_address(&address, path) < 0) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    // bind() creates the file with the umask applied: 0177 leaves 0600. The umask is
    // per process; the daemon has one thread, so nothing else creates files meanwhile.
    mode_t old = umask(0177);
    int bound = bind(fd, (struct sockaddr *)&address, sizeof address);
    umask(old);
    if (bound < 0 || listen(fd, backlog) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

static int unix_connect(const char *path, int flags) {
    struct sockaddr_un address;
    if (fill_address(&address, path) < 0) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | flags, 0);
    if (fd < 0) return -1;
    if (connect(fd, (struct sockaddr *)&address, sizeof address) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int cprocess_unix_connect(const char *path) {
    return unix_connect(path, 0);
}

int cprocess_unix_connect_nonblocking(const char *path) {
    return unix_connect(path, SOCK_NONBLOCK);
}

int cprocess_accept(int fd) {
    return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int cprocess_pipe_queued(int fd) {
    int queued = 0;
    if (ioctl(fd, FIONREAD, &queued) < 0) return -1;
    return queued;
}

void cprocess_trim_heap(void) {
    malloc_trim(0);
}

long cprocess_send_with_fd(int socket, const void *bytes, unsigned long length, int fd) {
    struct iovec part = { .iov_base = (void *)bytes, .iov_len = length };
    union {
        char buffer[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = { .msg_iov = &part, .msg_iovlen = 1, .msg_control = control.buffer, .msg_controllen = sizeof control.buffer };
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &fd, sizeof(int));
    return sendmsg(socket, &message, MSG_DONTWAIT | MSG_NOSIGNAL);
}

int cprocess_memfd(const char *name) {
    return memfd_create(name, MFD_CLOEXEC);
}

int cprocess_epoll_create(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

int cprocess_epoll_add(int epoll, int fd, unsigned long long key) {
    struct epoll_event event = { .events = EPOLLIN, .data.u64 = key };
    return epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event);
}

int cprocess_epoll_remove(int epoll, int fd) {
    return epoll_ctl(epoll, EPOLL_CTL_DEL, fd, NULL);
}

int cprocess_epoll_wait(int epoll, unsigned long long *keys, int capacity, int timeout) {
    struct epoll_event ready[32];
    if (capacity > 32) capacity = 32;
    int count = epoll_wait(epoll, ready, capacity, timeout);
    for (int index = 0; index < count; index++) keys[index] = ready[index].data.u64;
    return count;
}
