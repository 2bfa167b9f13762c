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
#include <unistd.h>

#define EVENT_SIZE 24 /* struct input_event on 64-bit */

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
    if (length <= 0) return 0;
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

ssize_t read(int fd, void *buffer, size_t count) {
    static ssize_t (*real)(int, void *, size_t);
    if (!real) real = dlsym(RTLD_NEXT, "read");
    ssize_t got = real(fd, buffer, count);
    if (got <= 0 || got % EVENT_SIZE == 0 || count % EVENT_SIZE != 0) return got;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode) || major(st.st_rdev) != 13) return got;
    /* Part of an event: wait briefly for the rest so libevdev sees whole events. */
    size_t want = EVENT_SIZE - (size_t)got % EVENT_SIZE;
    char *cursor = (char *)buffer + got;
    while (want > 0) {
        struct pollfd entry = {.fd = fd, .events = POLLIN};
        if (poll(&entry, 1, 100) <= 0) break;
        ssize_t more = real(fd, cursor, want);
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
