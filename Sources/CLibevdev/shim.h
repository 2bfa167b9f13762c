// libevdev for the contact reader; no other target imports this.
#include <libevdev/libevdev.h>
#include <linux/input.h>
