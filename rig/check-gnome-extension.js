// Checks touchgest's GNOME Shell extension for GNOME 45-50 (ES modules) with the gjs that
// is here (Debian 12: gjs 1.74, GNOME 43's), which has no GNOME Shell 45 to load it in:
//
//   DBUS_SESSION_BUS_ADDRESS=... gjs -m rig/check-gnome-extension.js EXTENSION_FOLDER SCRATCH_FOLDER
//
// It parses extension.js as a module, resolves its imports (gi:// for real; the shell's
// resource:///org/gnome/shell/extensions/extension.js by a stand-in with the same
// Extension base class, written to SCRATCH_FOLDER), constructs the default export with
// metadata.json as GNOME Shell 45 does, enables it against a stand-in global.display,
// moves the focus and a title, asks GetFocus over the session bus from a second
// connection, and disables it. Each step prints one line; the test compares them.
// What it cannot show: that GNOME Shell 45-50 itself load it (not installable here).
import GLib from 'gi://GLib';
import Gio from 'gi://Gio';
import System from 'system';

const [folder, scratch] = ARGV;
const shellModule = 'resource:///org/gnome/shell/extensions/extension.js';
const say = text => print(text);
const read = path => new TextDecoder().decode(GLib.file_get_contents(path)[1]);

const source = read(`${folder}/extension.js`);
const imports = [...source.matchAll(/^import .* from '([^']+)';$/gm)].map(m => m[1]);
say(`imports: ${imports.join(' ')}`);
if (/\bimports\./.test(source))
    say('uses the legacy imports object');

// The shell's Extension base class as GNOME 45 defines it: constructed with the
// metadata, which it keeps; enable() and disable() are the subclass's.
GLib.file_set_contents(`${scratch}/extension-base.js`,
    'export class Extension { constructor(metadata) { this.metadata = metadata; this.uuid = metadata.uuid; } }\n');
GLib.file_set_contents(`${scratch}/extension.js`, source.replace(shellModule, `file://${scratch}/extension-base.js`));

// global.display and Meta.Window, as far as the extension uses them.
class Signals {
    constructor() { this._handlers = new Map(); this._next = 1; }
    connect(name, callback) { this._handlers.set(this._next, [name, callback]); return this._next++; }
    disconnect(id) {
        if (!this._handlers.delete(id))
            throw new Error(`disconnect of unknown handler ${id}`);
    }
    emit(name) { [...this._handlers.values()].filter(([n]) => n === name).forEach(([, c]) => c(this)); }
    get connected() { return this._handlers.size; }
}
class Window extends Signals {
    constructor(wmClass, title) { super(); this._class = wmClass; this.title = title; }
    get_wm_class() { return this._class; }
    get_title() { return this.title; }
}
const display = new Signals();
display.focus_window = new Window('term-a', 'Alpha');
globalThis.global = {display};

const loop = new GLib.MainLoop(null, false);
const bus = Gio.DBus.session;
const signals = [];
bus.signal_subscribe(bus.get_unique_name(), 'org.touchgest.Focus', 'FocusChanged', '/org/touchgest/Focus', null,
    Gio.DBusSignalFlags.NONE, (connection, sender, path, iface, name, parameters) => {
        signals.push(`signal FocusChanged ${parameters.deepUnpack().join(' ')}`);
    });

function settle() { // runs the main loop until nothing is pending for 100 ms
    let id = GLib.timeout_add(GLib.PRIORITY_DEFAULT, 100, () => { loop.quit(); return GLib.SOURCE_REMOVE; });
    loop.run();
    signals.splice(0).forEach(say);
    return id;
}

function getFocus() { // GetFocus from a second connection, as touchgest would call it
    const other = Gio.DBusConnection.new_for_address_sync(GLib.getenv('DBUS_SESSION_BUS_ADDRESS'),
        Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, null, null);
    other.call(bus.get_unique_name(), '/org/touchgest/Focus', 'org.touchgest.Focus', 'GetFocus', null,
        new GLib.VariantType('(ss)'), Gio.DBusCallFlags.NONE, 2000, null, (connection, result) => {
            say(`GetFocus ${connection.call_finish(result).deepUnpack().join(' ')}`);
            loop.quit();
        });
    loop.run();
    other.close_sync(null);
}

const module = await import(`file://${scratch}/extension.js`);
const metadata = JSON.parse(read(`${folder}/metadata.json`));
const extension = new module.default(metadata);
say(`constructed ${extension.constructor.name} for ${metadata.uuid}, shell-version ${metadata['shell-version'].join(' ')}`);
extension.enable();
say('enabled');
settle();
getFocus();
display.focus_window = new Window('term-b', 'Bee');
display.emit('notify::focus-window');
settle();
display.focus_window.title = 'Bee 2';
display.focus_window.emit('notify::title');
settle();
display.focus_window = null;
display.emit('notify::focus-window');
settle();
getFocus();
extension.disable();
say(`disabled; handlers left connected: ${display.connected}`);
System.exit(0);
