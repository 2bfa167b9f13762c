#ifndef CUINPUT_H
#define CUINPUT_H

// The kernel's uinput interface (linux/uinput.h), for the input channel of last resort:
// a virtual keyboard made on /dev/uinput. Kept in C so that the ioctl numbers and the
// struct layouts come from the kernel's own headers, not from copies.

// Makes `fd` (/dev/uinput, open for writing) a keyboard named `name`: EV_KEY with every
// key code from KEY_ESC to KEY_MICMUTE, on BUS_VIRTUAL, and no pointer axes or buttons,
// so that libinput and the desktop take it for a keyboard, never a mouse or touchpad.
// Returns 0, or -errno of the step that failed.
int cuinput_create_keyboard(int fd, const char *name);

// Writes `count` key events (`codes[i]` pressed when `values[i]` is 1, released when 0),
// each followed by a SYN_REPORT, in one write. Returns the bytes written, or -errno.
long cuinput_write_keys(int fd, const unsigned short *codes, const int *values, int count);

// The size of one struct input_event on this system.
int cuinput_event_size(void);

// The highest key code the keyboard offers (KEY_MICMUTE).
int cuinput_last_key(void);

// Removes the keyboard (UI_DEV_DESTROY); the descriptor stays open.
void cuinput_destroy(int fd);

#endif
