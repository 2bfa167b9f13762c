// libinput and libudev for the input adapter; no other target imports this.
#include <libinput.h>
#include <libudev.h>
#include <linux/input.h>
#include <sys/ioctl.h>
#include <sys/xattr.h>

// Swift cannot call the kernel's function-like ioctl macros, so these wrap the two
// queries the adapter makes on a node libinput opened through it.

/// EVIOCGABS(code): the axis's minimum, maximum and resolution. 0, or -1 with errno.
static inline int touchgest_get_absinfo(int fd, unsigned int code, struct input_absinfo *info) {
    return ioctl(fd, EVIOCGABS(code), info);
}

/// EVIOCGPROP: 1 when the device has INPUT_PROP_<property>, 0 when not, -1 with errno.
static inline int touchgest_has_property(int fd, unsigned int property) {
    // 8 bytes, as libevdev asks: umockdev answers only the exact size it recorded.
    unsigned char bits[8] = {0};
    if (ioctl(fd, EVIOCGPROP(sizeof bits), bits) < 0) return -1;
    return (bits[property / 8] >> (property % 8)) & 1;
}
