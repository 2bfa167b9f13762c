/*
 * LD_PRELOAD shim for running real libinput on umockdev 0.17 emulated input devices.
 * It goes *before* libumockdev-preload in LD_PRELOAD.
 *
 * 1. umockdev 0.17 does not wrap fstat(): an fd on an emulated node reports the
 *    backing pty's device number (136:N), libinput sees it differs from the udev
 *    device's and refuses the device ("failed to create input device"). Here fstat
 *    of such a pty reports the emulated major:minor, read from
 *    $UMOCKDEV_DIR/dev/.ptymap/_dev_pts_N.
 * 2. The node is a pty, not evdev: a read can return part of a 24-byte input_event,
 *    and libevdev then drops the device silently. Reads on those ptys are completed
 *    to whole events. Each repair is counted in $TOUCHRIG_REPAIR_LOG so the rig can
 *    tell a run that lost its stream.
 * 3. A real evdev node serves every reader the same events; a pty serves each byte to
 *    one reader only. So while one descriptor of an emulated node /dev/input/eventN is
 *    open, a second open of it gets a pty of its own: the rig makes one per device and
 *    names its slave in $TOUCHRIG_SPARES/eventN, and writes every frame to both while
 *    $TOUCHRIG_SPARES/eventN.open exists. umockdev's open still runs first, so the
 *    descriptor keeps umockdev's ioctl answers; only its bytes come from the spare.
 * 4. umockdev sends every read() of a node whose ioctls it emulates to the rig's process
 *    and back (a request, a "run it yourself", the result, "done", then usleep(0)): five
 *    context switches a read, about ten a frame, where a real evdev node costs its reader
 *    one wake-up a frame. Nothing in the
 *    rig answers reads, so reads of the nodes' descriptors go straight to the kernel, and
 *    a program's CPU and wake-ups on the rig are its own, as on hardware.
 * 5. With $TOUCHRIG_OPEN_LOG set, every open of an emulated node /dev/input/eventN that
 *    succeeds is appended to that file as its path: which devices the program opened.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <stdarg.h>
#include <termios.h>
#include <sys/syscall.h>
#include <unistd.h>

#define EVENT_SIZE 24 /* struct input_event on 64-bit */

/* The device number the rig gives a spare pty ($TOUCHRIG_SPARES/_dev_pts_N), or 0. */
static dev_t spare_devnum(const char *pts_name) {
    const char *spares = getenv("TOUCHRIG_SPARES");
    if (!spares) return 0;
    char map[PATH_MAX], number[64];
    snprintf(map, sizeof map, "%s/%s", spares, pts_name);
    ssize_t length = readlink(map, number, sizeof number - 1);
    if (length <= 0) return 0;
    number[length] = 0;
    unsigned major_number, minor_number;
    if (sscanf(number, "%u:%u", &major_number, &minor_number) != 2) return 0;
    return makedev(major_number, minor_number);
}

/* The emulated device number behind a pty fd, or 0 if the fd is not one. */
static dev_t emulated_devnum(int fd) {
    const char *root = getenv("UMOCKDEV_DIR");
    if (!root) return 0;
    char link[64], target[PATH_MAX], map[PATH_MAX], number[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, target, sizeof target - 1);
    if (length <= 0 || strncmp(target, "/dev/pts/", 9) != 0) return 0;
    target[length] = 0;
    for (char *c = target; *c; c++) if (*c == '/') *c = '_';
    snprintf(map, sizeof map, "%s/dev/.ptymap/%s", root, target);
    length = readlink(map, number, sizeof number - 1);
    if (length <= 0) return spare_devnum(target);
    number[length] = 0;
    unsigned major_number, minor_number;
    if (sscanf(number, "%u:%u", &major_number, &minor_number) != 2) return 0;
    return makedev(major_number, minor_number);
}

static void fix(int fd, struct stat *st) {
    if (!S_ISCHR(st->st_mode) || major(st->st_rdev) != 136) return;
    dev_t number = emulated_devnum(fd);
    if (number) st->st_rdev = number;
}

int fstat(int fd, struct stat *st) {
    static int (*real)(int, struct stat *);
    if (!real) real = dlsym(RTLD_NEXT, "fstat");
    int result = real(fd, st);
    if (result == 0) fix(fd, st);
    return result;
}

int fstat64(int fd, struct stat64 *st) {
    static int (*real)(int, struct stat64 *);
    if (!real) real = dlsym(RTLD_NEXT, "fstat64");
    int result = real(fd, st);
    if (result == 0) fix(fd, (struct stat *)st);
    return result;
}

static void note_repair(void) {
    const char *log = getenv("TOUCHRIG_REPAIR_LOG");
    if (!log) return;
    int out = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (out >= 0) {
        ssize_t ignored = write(out, "repaired\n", 9);
        (void)ignored;
        close(out);
    }
}

/* Descriptors of emulated nodes this process holds: which node, and whether the
 * descriptor reads the node's spare pty. */
#define MAX_TRACKED 64
static struct { int fd; int node; int spare; } tracked[MAX_TRACKED];
static int tracked_count;

ssize_t read(int fd, void *buffer, size_t count) {
    static ssize_t (*real)(int, void *, size_t);
    if (!real) real = dlsym(RTLD_NEXT, "read");
    int node = 0;
    for (int i = 0; i < tracked_count && !node; i++) node = tracked[i].fd == fd;
    ssize_t got = node ? syscall(SYS_read, fd, buffer, count) : real(fd, buffer, count);
    if (got <= 0 || got % EVENT_SIZE == 0 || count % EVENT_SIZE != 0) return got;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode) || major(st.st_rdev) != 13) return got;
    /* Part of an event: wait briefly for the rest so libevdev sees whole events. */
    size_t want = EVENT_SIZE - (size_t)got % EVENT_SIZE;
    char *cursor = (char *)buffer + got;
    while (want > 0) {
        struct pollfd entry = {.fd = fd, .events = POLLIN};
        if (poll(&entry, 1, 100) <= 0) break;
        ssize_t more = node ? syscall(SYS_read, fd, cursor, want) : real(fd, cursor, want);
        if (more <= 0) {
            if (more < 0 && (errno == EAGAIN || errno == EINTR)) continue;
            break;
        }
        cursor += more;
        got += more;
        want -= (size_t)more;
    }
    note_repair();
    return got;
}

static int node_number(const char *path) {
    int node;
    char rest;
    if (!path || sscanf(path, "/dev/input/event%d%c", &node, &rest) != 1) return -1;
    return node;
}

static void marker_path(char *buffer, size_t size, int node) {
    snprintf(buffer, size, "%s/event%d.open", getenv("TOUCHRIG_SPARES"), node);
}

/* `fd` was just opened on emulated node `node` by umockdev; if another descriptor of
 * the node is open, make `fd` read the node's spare pty instead. */
static int second_reader(int fd, int node, int flags) {
    static int (*real_open)(const char *, int, ...);
    if (!real_open) real_open = dlsym(RTLD_NEXT, "open");
    int taken = 0, spare_taken = 0;
    for (int i = 0; i < tracked_count; i++) {
        if (tracked[i].node != node) continue;
        taken = 1;
        if (tracked[i].spare) spare_taken = 1;
    }
    int spare = 0;
    const char *spares = getenv("TOUCHRIG_SPARES");
    if (taken && !spare_taken && spares) {
        char link[PATH_MAX], pts[PATH_MAX];
        snprintf(link, sizeof link, "%s/event%d", spares, node);
        ssize_t length = readlink(link, pts, sizeof pts - 1);
        if (length > 0) {
            pts[length] = 0;
            int other = real_open(pts, O_RDWR | O_NOCTTY | (flags & O_NONBLOCK));
            if (other >= 0) {
                /* Bytes written before this reader came are not its: a real node gives a
                 * new reader only what happens after it opened. */
                tcflush(other, TCIFLUSH);
                dup3(other, fd, flags & O_CLOEXEC);
                close(other);
                char marker[PATH_MAX];
                marker_path(marker, sizeof marker, node);
                int made = real_open(marker, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
                if (made >= 0) close(made);
                spare = 1;
            }
        }
    }
    if (tracked_count < MAX_TRACKED) {
        tracked[tracked_count].fd = fd;
        tracked[tracked_count].node = node;
        tracked[tracked_count].spare = spare;
        tracked_count++;
    }
    return fd;
}

static void log_open(const char *path) {
    static int (*real_open)(const char *, int, ...);
    if (!real_open) real_open = dlsym(RTLD_NEXT, "open");
    const char *log = getenv("TOUCHRIG_OPEN_LOG");
    if (!log) return;
    int file = real_open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (file < 0) return;
    char line[PATH_MAX + 1];
    int length = snprintf(line, sizeof line, "%s\n", path);
    if (length > 0) (void)!write(file, line, (size_t)length);
    close(file);
}

static int opened(const char *path, int flags, int fd) {
    int node = node_number(path);
    if (fd < 0 || node < 0 || !getenv("UMOCKDEV_DIR")) return fd;
    log_open(path);
    return second_reader(fd, node, flags);
}

int open(const char *path, int flags, ...) {
    static int (*real)(const char *, int, ...);
    if (!real) real = dlsym(RTLD_NEXT, "open");
    va_list arguments;
    va_start(arguments, flags);
    mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? va_arg(arguments, mode_t) : 0;
    va_end(arguments);
    return opened(path, flags, real(path, flags, mode));
}

int open64(const char *path, int flags, ...) {
    static int (*real)(const char *, int, ...);
    if (!real) real = dlsym(RTLD_NEXT, "open64");
    va_list arguments;
    va_start(arguments, flags);
    mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? va_arg(arguments, mode_t) : 0;
    va_end(arguments);
    return opened(path, flags, real(path, flags, mode));
}

/* What a fortified open(path, flags) calls (libinput's tools are built so). */
int __open_2(const char *path, int flags) {
    static int (*real)(const char *, int);
    if (!real) real = dlsym(RTLD_NEXT, "__open_2");
    return opened(path, flags, real(path, flags));
}

int __open64_2(const char *path, int flags) {
    static int (*real)(const char *, int);
    if (!real) real = dlsym(RTLD_NEXT, "__open64_2");
    return opened(path, flags, real(path, flags));
}

int close(int fd) {
    static int (*real)(int);
    if (!real) real = dlsym(RTLD_NEXT, "close");
    for (int i = 0; i < tracked_count; i++) {
        if (tracked[i].fd != fd) continue;
        if (tracked[i].spare) {
            char marker[PATH_MAX];
            marker_path(marker, sizeof marker, tracked[i].node);
            unlink(marker);
        }
        tracked[i] = tracked[--tracked_count];
        break;
    }
    return real(fd);
}
