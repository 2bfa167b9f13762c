#!/usr/bin/gjs
// A real Wayland window for the focus rigs (rig/headless-gnome, rig/headless-kwin): a
// GTK 3 window with the app id and title it is given, so that each test can tell
// windows apart (wev, which also works on both, is always app id and title "wev").
//
//   gjs rig/window.js APP_ID TITLE [TITLE_FILE]
//
// On SIGUSR1 it takes TITLE_FILE's first line as its new title, for the title tests.
// WAYLAND_DISPLAY and XDG_RUNTIME_DIR say which compositor it opens on. Every key and
// button its window gets is a line on standard output, for the input tests:
// `APP_ID press Control_L`, `APP_ID release button 2`.
imports.gi.versions.Gtk = '3.0';
imports.gi.versions.Gdk = '3.0';
const {Gdk, GLib, Gtk} = imports.gi;

const [appId, title, titleFile] = ARGV;
// Without a GApplication, GTK 3 on Wayland sends the program name as the app id.
GLib.set_prgname(appId);
Gtk.init(null);
const window = new Gtk.Window({title, default_width: 320, default_height: 200});
window.connect('destroy', () => Gtk.main_quit());
// Handled here: left to propagate, GTK 3 logged each click twice.
function said(what) { print(`${appId} ${what}`); return true; }
window.connect('key-press-event', (_, event) => said(`press ${Gdk.keyval_name(event.get_keyval()[1])}`));
window.connect('key-release-event', (_, event) => said(`release ${Gdk.keyval_name(event.get_keyval()[1])}`));
window.connect('button-press-event', (_, event) => said(`press button ${event.get_button()[1]}`));
window.connect('button-release-event', (_, event) => said(`release button ${event.get_button()[1]}`));
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, 10 /* SIGUSR1 */, () => {
    const [, bytes] = GLib.file_get_contents(titleFile);
    window.set_title(new TextDecoder().decode(bytes).split('\n')[0]);
    return GLib.SOURCE_CONTINUE;
});
// Maximized, so that the focused window is also the one under the pointer: a click goes
// where the keys go.
window.add_events(Gdk.EventMask.BUTTON_PRESS_MASK | Gdk.EventMask.BUTTON_RELEASE_MASK);
window.maximize();
window.show_all();
Gtk.main();
