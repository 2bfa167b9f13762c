#include "cuinput.h"

#include <errno.h>
#include <linux/uinput.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int cuinput_create_keyboard(int fd, const char *name) {
    if (ioctl(fd, UI_SET_EVBIT, EV_KEY) < 0) return -errno;
    if (ioctl(fd, UI_SET_EVBIT, EV_SYN) < 0) return -errno;
    for (int code = KEY_ESC; code <= KEY_MICMUTE; code++) {
        if (ioctl(fd, UI_SET_KEYBIT, code) < 0) return -errno;
    }
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_VIRTUAL;
    setup.id.vendor = 0;
    setup.id.product = 0;
    setup.id.version = 1;
    strncpy(setup.name, name, UINPUT_MAX_NAME_SIZE - 1);
    if (ioctl(fd, UI_DEV_SETUP, &setup) < 0) return -errno;
    if (ioctl(fd, UI_DEV_CREATE) < 0) return -errno;
    return 0;
}

long cuinput_write_keys(int fd, const unsigned short *codes, const int *values, int count) {
    if (count <= 0) return 0;
    struct input_event *events = calloc((size_t)count * 2, sizeof *events);
    if (!events) return -ENOMEM;
    for (int i = 0; i < count; i++) {
        // The kernel stamps the time as it takes each event.
        events[2 * i].type = EV_KEY;
        events[2 * i].code = codes[i];
        events[2 * i].value = values[i];
        events[2 * i + 1].type = EV_SYN;
        events[2 * i + 1].code = SYN_REPORT;
        events[2 * i + 1].value = 0;
    }
    ssize_t written = write(fd, events, (size_t)count * 2 * sizeof *events);
    int error = errno;
    free(events);
    return written < 0 ? -error : (long)written;
}

int cuinput_event_size(void) { return (int)sizeof(struct input_event); }

int cuinput_last_key(void) { return KEY_MICMUTE; }

void cuinput_destroy(int fd) { ioctl(fd, UI_DEV_DESTROY); }
