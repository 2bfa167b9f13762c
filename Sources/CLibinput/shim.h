// libinput and libudev for the input adapter; no other target imports this.
#include <libinput.h>
#include <libudev.h>
#include <linux/input-event-codes.h>
