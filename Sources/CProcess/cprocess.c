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
#include <sched.h>
#include <stdint.h>
#include <signal.h>
#include <sys/wait.h>

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

void cprocess_map_large_blocks(int bytes) {
    mallopt(M_MMAP_THRESHOLD, bytes);
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

/* What the child of cprocess_spawn needs, in the parent's frame; `error` is written by
 * the child, in the memory it shares with the parent, when it cannot start the program. */
struct spawn_request {
    const char *path;
    char *const *argv;
    char *const *envp;
    int stdin_fd;
    int stderr_fd;
    /* The CPUs the daemon may run on, which the child takes back before its execve; NULL
     * when the child was not held to the daemon's CPU. */
    const cpu_set_t *cpus;
    int error;
};

/* The kernel's struct sigaction on x86-64 and arm64: the handler first, a 64-bit mask. */
struct kernel_sigaction {
    void (*handler)(int);
    unsigned long flags;
    void (*restorer)(void);
    uint64_t mask;
};

/* Runs in the child, on the parent's memory and a stack in its frame, so it makes system
 * calls only, never a libc function a preloaded library could wrap (the test rig's and
 * umockdev's wrap open, take locks and keep state: in here they could deadlock the
 * daemon, which sleeps until the child execs). Every signal with a handler or ignored
 * goes back to its default first (a handler would be the daemon's code running in the
 * child; glibc's own, on 32 and 33, included, which its sigaction will not touch), then
 * the process group, the descriptors, the mask, and execve. */
static int spawn_child(void *argument) {
    struct spawn_request *request = argument;
    for (int number = 1; number < NSIG; number++) {
        struct kernel_sigaction now, fallback;
        if (number == SIGKILL || number == SIGSTOP
            || syscall(SYS_rt_sigaction, number, NULL, &now, sizeof now.mask) != 0 || now.handler == SIG_DFL) continue;
        memset(&fallback, 0, sizeof fallback);
        fallback.handler = SIG_DFL;
        syscall(SYS_rt_sigaction, number, &fallback, NULL, sizeof fallback.mask);
    }
    if (syscall(SYS_setpgid, 0, 0) != 0) goto fail;
    long input = request->stdin_fd >= 0 ? request->stdin_fd : syscall(SYS_openat, AT_FDCWD, "/dev/null", O_RDONLY | O_CLOEXEC);
    if (input < 0) goto fail;
    if (input != 0 && syscall(SYS_dup3, input, 0, 0) != 0) goto fail;
    if (request->stderr_fd >= 0 && request->stderr_fd != 2 && syscall(SYS_dup3, request->stderr_fd, 2, 0) != 2) goto fail;
    /* A descriptor already at 0 or 2 (the daemon's own were closed) keeps its close-on-exec
     * flag through no dup3: clear it. */
    if (input == 0) syscall(SYS_fcntl, 0, F_SETFD, 0);
    if (request->stderr_fd == 2) syscall(SYS_fcntl, 2, F_SETFD, 0);
    /* Free to run anywhere again: execve's own balancing then sees the daemon asleep. */
    if (request->cpus && syscall(SYS_sched_setaffinity, 0, sizeof *request->cpus, request->cpus) != 0) goto fail;
    uint64_t none = 0;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &none, NULL, sizeof none);
    syscall(SYS_execve, request->path, request->argv, request->envp);
fail:
    request->error = errno != 0 ? errno : EINVAL;
    syscall(SYS_exit_group, 127);
    return 127;
}

#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif

/* Whether pidfds can be polled (Linux 5.3, which also brought pidfd_open; 5.2 makes them
 * with CLONE_PIDFD but cannot poll them): asked once. */
static int pidfds_poll(void) {
    static int known = -1;
    if (known < 0) {
        int fd = (int)syscall(SYS_pidfd_open, getpid(), 0);
        known = fd >= 0 || errno != ENOSYS;
        if (fd >= 0) close(fd);
    }
    return known;
}

pid_t cprocess_spawn(const char *path, char *const argv[], char *const envp[], int stdin_fd, int stderr_fd, int *pidfd, int *error) {
    /* The child runs on this array while this thread sleeps in clone (CLONE_VFORK). It
     * needs little: a few system calls, nothing of libc's but their wrapper. */
    _Alignas(16) char stack[32768];
    struct spawn_request request = { path, argv, envp, stdin_fd, stderr_fd, NULL, 0 };
    /* A new task is placed on the CPU the scheduler thinks idlest, counting the daemon as
     * busy on its own; but the daemon sleeps from the clone to the child's execve, so the
     * other CPU, where another program runs, was the worse place: the child waited there
     * for its turn (a quarter of the commands on a loaded 2-CPU machine, 1 ms on average;
     * docs/modules.md). The child is made on the daemon's CPU, held there by the
     * affinity it inherits, and takes back the daemon's own set before its execve. */
    cpu_set_t allowed;
    int cpu = sched_getcpu();
    if (cpu >= 0 && cpu < CPU_SETSIZE && sched_getaffinity(0, sizeof allowed, &allowed) == 0
        && CPU_COUNT(&allowed) > 1 && CPU_ISSET(cpu, &allowed)) {
        cpu_set_t here;
        CPU_ZERO(&here);
        CPU_SET(cpu, &here);
        if (sched_setaffinity(0, sizeof here, &here) == 0) request.cpus = &allowed;
    }
    /* Every signal blocked until the child has reset their handlers: none may run in it.
     * (glibc keeps its own 32 and 33 unblocked; it sends them to the daemon's threads only.) */
    sigset_t all, before;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &before);
    int descriptor = -1;
    int flags = CLONE_VM | CLONE_VFORK | SIGCHLD | (pidfds_poll() ? CLONE_PIDFD : 0);
    pid_t pid = clone(spawn_child, stack + sizeof stack, flags, &request, &descriptor);
    int cloneError = errno;
    if (request.cpus) sched_setaffinity(0, sizeof allowed, &allowed);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    if (pid < 0) {
        *error = cloneError;
        return -1;
    }
    if (request.error != 0) {
        /* The child has exited (127): reap it here, as posix_spawn does. */
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
        if (descriptor >= 0) close(descriptor);
        *error = request.error;
        return -1;
    }
    *pidfd = descriptor;
    return pid;
}
