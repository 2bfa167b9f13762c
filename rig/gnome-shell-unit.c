/*
 * LD_PRELOAD shim for GNOME Shell 43.9 in the rigs (rig/headless-common.sh,
 * start_gnome_shell): the shell is told that it runs in a systemd user unit,
 * org.gnome.Shell@wayland.service, as it does in a Debian 12 session that GDM started.
 * Every other process's unit is looked up as before.
 *
 * Why: a shell that is not in a user unit forks ibus-daemon itself at its start
 * (js/misc/ibusManager.js), with a JavaScript function to run in the child before exec.
 * When another of the shell's threads held GObject's type lock at the fork, the child
 * waits on that lock forever, and the shell's main thread, reading the child's pipe in
 * g_spawn_async, waits on the child: the shell never answers again (docs/focus.md). A
 * shell in a user unit asks the systemd user manager whether IBus's unit exists instead,
 * and a stand-in on the rig's session bus (rig/systemd-user.py) says it does, as on
 * Debian 12, so the shell forks nothing at its start.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

int sd_pid_get_user_unit(pid_t pid, char **unit) {
    if (pid == 0 || pid == getpid()) {
        if (unit == NULL) return -EINVAL;
        *unit = strdup("org.gnome.Shell@wayland.service");
        return *unit == NULL ? -ENOMEM : 0;
    }
    int (*lookup)(pid_t, char **) = (int (*)(pid_t, char **))dlsym(RTLD_NEXT, "sd_pid_get_user_unit");
    return lookup == NULL ? -ENODATA : lookup(pid, unit);
}
