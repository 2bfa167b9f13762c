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
// It then drives org.touchgest.Input from second connections against stand-ins of the
// shell's main.js, Clutter and Meta that print what they are asked: as a trusted program
// (this gjs, named in SCRATCH_FOLDER/trusted-programs), as an untrusted one, and while
// locked; and follows the modifiers from second connections that watch them, with a third
// that does not and must hear nothing, against a stand-in of the seat's keymap that signals
// each change as mutter 49 does (config.js says 49.0) and global.get_pointer()'s mask.
// Last, from one connection that stays as touchgest's does, YieldGestures and Follow against
// stand-ins of the shell's two swipe trackers (swipeTracker.js's enabled binding and touchpad
// gesture signals), and that both are given back when that connection leaves the bus.
// The feedback panel against stand-ins of St and the shell's layout manager that print
// what is made, added, eased and destroyed: shown, refused past its bounds, faded, removed
// at a lock, refused while locked, and faded when its caller leaves the bus.
// What it cannot show: that GNOME Shell 45-50 itself load it (not installable here), nor
// mutter's own Clutter and Meta (their typelibs load only inside the shell).
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
    'export class Extension { constructor(metadata) { this.metadata = metadata; this.uuid = metadata.uuid; this.path = metadata.path; } }\n');
// The shell's main.js, mutter's Clutter and Meta: what the input part uses, printing each call.
GLib.file_set_contents(`${scratch}/main.js`, `
class Signals {
    constructor() { this.handlers = new Map(); this.next = 1; }
    connect(name, callback) { this.handlers.set(this.next, [name, callback]); return this.next++; }
    disconnect(id) {
        if (!this.handlers.delete(id))
            throw new Error(\`disconnect of unknown handler \${id}\`);
    }
    emit(name) { [...this.handlers.values()].filter(([n]) => n === name).forEach(([, c]) => c(this)); }
}
export const sessionMode = Object.assign(new Signals(), {isLocked: false});
export const screenShield = null;
// A SwipeTracker as swipeTracker.js makes it: its enabled copied into its touchpad gesture
// (the one-way binding, a notify::enabled handler connected first), and the gesture's
// begin, update and end signals, printed where the tracker would take them. The tracker
// confirms the swipe at its begin (SCROLLING, from 0; its cancel goes back to 0), adds each
// update's delta / distance to its progress, and decides an end as the shell does for a
// slow lift (swipeTracker.js _getEndProgress below its speed threshold): the nearest snap
// point of -1, 0 and 1.
class TouchpadGesture {
    constructor(name) { this.name = name; this.enabled = true; }
    emit(signal, ...values) {
        print(\`\${this.name} tracker: \${signal} \${values.map(v => Math.round(v * 1000) / 1000).join(' ')}\${this.tracker._cancelled ? ' (cancelled)' : ''}\`);
        if (signal === 'begin')
            Object.assign(this.tracker, {_state: 1, _progress: 0, _cancelProgress: 0});
        else if (signal === 'update')
            this.tracker._progress += values[1] / values[2];
        else if (signal === 'end')
            this.tracker._state = 0;
    }
}
class Tracker extends Signals {
    constructor(name, orientation) {
        super();
        this._enabled = true;
        this.orientation = orientation;
        this._cancelled = false;
        this._state = 0;
        this._history = {calculateVelocity: () => 0};
        this._touchpadGesture = Object.assign(new TouchpadGesture(name), {tracker: this});
        this.connect('notify::enabled', () => { this._touchpadGesture.enabled = this._enabled; });
    }
    get enabled() { return this._enabled; }
    set enabled(value) { this._enabled = value; this.emit('notify::enabled'); }
    _getEndProgress(velocity, distance, isTouchpad) {
        return this._cancelled ? this._cancelProgress : Math.max(-1, Math.min(1, Math.round(this._progress)));
    }
}
export const overview = {toggle() { print('shell: overview toggled'); }, showApps() { print('shell: app grid shown'); },
    _swipeTracker: new Tracker('overview', 1)};
export const wm = {actionMoveWorkspace(workspace) { print(\`shell: moved to the workspace \${workspace}\`); },
    _workspaceAnimation: {_swipeTracker: new Tracker('workspaces', 0)}};
// The layout manager: a 1920x1080 monitor and a 32-pixel top bar.
export const layoutManager = {primaryMonitor: {x: 0, y: 0, width: 1920, height: 1080}, panelBox: {height: 32},
    addTopChrome(actor, params) { print(\`shell: top chrome \${actor.name} at \${actor.x},\${actor.y} \${actor.width}x\${actor.height}, reactive \${actor.reactive}, input region \${params.affectsInputRegion}\`); }};
export const swipes = () => [wm._workspaceAnimation._swipeTracker, overview._swipeTracker].map(t => t._touchpadGesture.enabled).join(' ');
`);
GLib.file_set_contents(`${scratch}/clutter.js`, `
const device = kind => ({
    notify_keyval(time, keysym, state) { print(\`clutter: \${kind} keysym 0x\${keysym.toString(16)} \${state ? 'pressed' : 'released'}\`); },
    notify_button(time, button, state) { print(\`clutter: \${kind} button \${button} \${state ? 'pressed' : 'released'}\`); },
});
class Signals {
    constructor() { this.handlers = new Map(); this.next = 1; }
    connect(name, callback) { this.handlers.set(this.next, [name, callback]); return this.next++; }
    disconnect(id) {
        if (!this.handlers.delete(id))
            throw new Error(\`disconnect of unknown handler \${id}\`);
    }
    emit(name) { [...this.handlers.values()].filter(([n]) => n === name).forEach(([, c]) => c(this)); }
}
export const keymap = new Signals();
export default {
    AnimationMode: {LINEAR: 1},
    Orientation: {HORIZONTAL: 0, VERTICAL: 1},
    InputDeviceType: {KEYBOARD_DEVICE: 'keyboard', POINTER_DEVICE: 'pointer'},
    KeyState: {RELEASED: 0, PRESSED: 1},
    ButtonState: {RELEASED: 0, PRESSED: 1},
    get_default_backend: () => ({get_default_seat: () => ({create_virtual_device: kind => device(kind), get_keymap: () => keymap})}),
};
`);
// St: a widget that keeps its children, labels that keep their text, drawing areas whose
// repaint draws on a context that keeps its colours and rectangles.
GLib.file_set_contents(`${scratch}/st.js`, `
class Widget {
    constructor(params = {}) { Object.assign(this, {opacity: 255, children: []}, params); }
    add_child(child) { this.children.push(child); }
    remove_all_transitions() {}
    ease(params) { print(\`st: \${this.name} eases to opacity \${params.opacity} over \${params.duration} ms\`); params.onComplete(); }
    destroy() { print(\`st: \${this.name} destroyed\`); }
    set_name(name) { this.name = name; }
}
class Label extends Widget {}
class DrawingArea extends Widget {
    connect(signal, callback) { this.repaint = callback; }
    queue_repaint() {
        this.drawn = [];
        const cr = {rectangle: (x, y, w, h) => this.drawn.push(\`\${w}x\${h}\`), lineTo: () => this.drawn.push('line'),
            setSourceRGBA: (...rgb) => this.drawn.push('#' + rgb.slice(0, 3).map(v => Math.round(v * 255).toString(16).padStart(2, '0')).join('')),
            fill() {}, setLineWidth() {}, moveTo() {}, stroke() {}, $dispose() {}};
        this.get_context = () => cr;
        this.repaint();
    }
}
export default {Widget, Label, DrawingArea};
`);
GLib.file_set_contents(`${scratch}/config.js`, "export const PACKAGE_VERSION = '49.0';\n");
GLib.file_set_contents(`${scratch}/meta.js`, "export default {MotionDirection: {LEFT: 'left', RIGHT: 'right'}, MaximizeFlags: {BOTH: 3}};\n");
GLib.file_set_contents(`${scratch}/extension.js`, source.replace(shellModule, `file://${scratch}/extension-base.js`)
    .replace('resource:///org/gnome/shell/ui/main.js', `file://${scratch}/main.js`)
    .replace('resource:///org/gnome/shell/misc/config.js', `file://${scratch}/config.js`)
    .replace("'gi://Clutter'", `'file://${scratch}/clutter.js'`).replace("'gi://St'", `'file://${scratch}/st.js'`).replace("'gi://Meta'", `'file://${scratch}/meta.js'`));

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
const workspaceManager = {get_active_workspace: () => ({get_neighbor: direction => `to the ${direction}`})};
// The seat's modifier mask, as global.get_pointer() gives it with the pointer's position.
let pointerMask = 0;
globalThis.global = {display, workspace_manager: workspaceManager, get_current_time: () => 0, get_pointer: () => [10, 20, pointerMask]};

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
    // Signals to several connections arrive in any order between them.
    signals.splice(0).sort().forEach(say);
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

/** Calls org.touchgest.Input's `method` from a second connection, as touchgest would. */
function input(method, signature, value) {
    const other = Gio.DBusConnection.new_for_address_sync(GLib.getenv('DBUS_SESSION_BUS_ADDRESS'),
        Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, null, null);
    other.call(bus.get_unique_name(), '/org/touchgest/Input', 'org.touchgest.Input', method, new GLib.Variant(signature, [value]),
        null, Gio.DBusCallFlags.NONE, 2000, null, (connection, result) => {
            try {
                connection.call_finish(result);
                say(`${method} done`);
            } catch (error) {
                Gio.DBusError.strip_remote_error(error);
                say(`${method} refused: ${error.message}`);
            }
            loop.quit();
        });
    loop.run();
    other.close_sync(null);
}

const connect = () => Gio.DBusConnection.new_for_address_sync(GLib.getenv('DBUS_SESSION_BUS_ADDRESS'),
    Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, null, null);

/** Prints each ModifiersChanged the extension sends to `other` as `label told MASK`. */
function hear(other, label) {
    other.signal_subscribe(bus.get_unique_name(), 'org.touchgest.Input', 'ModifiersChanged', '/org/touchgest/Input', null,
        Gio.DBusSignalFlags.NONE, (connection, sender, path, iface, name, parameters) => {
            signals.push(`${label} told 0x${parameters.deepUnpack()[0].toString(16)}`);
        });
}

/** Calls WatchModifiers or UnwatchModifiers from `other`, as touchgest would. */
function modifiers(other, label, method) {
    other.call(bus.get_unique_name(), '/org/touchgest/Input', 'org.touchgest.Input', method, null, null,
        Gio.DBusCallFlags.NONE, 2000, null, (connection, result) => {
            try {
                const [mask] = connection.call_finish(result).deepUnpack();
                say(`${label} ${method} done${mask === undefined ? '' : `: 0x${mask.toString(16)}`}`);
            } catch (error) {
                Gio.DBusError.strip_remote_error(error);
                say(`${label} ${method} refused: ${error.message}`);
            }
            loop.quit();
        });
    loop.run();
}

const module = await import(`file://${scratch}/extension.js`);
const metadata = JSON.parse(read(`${folder}/metadata.json`));
metadata.path = scratch;
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
GLib.file_set_contents(`${scratch}/trusted-programs`, `${GLib.file_read_link('/proc/self/exe')}\n`);
input('Keys', '(s)', 'ffe3:1 76:1 76:0 ffe3:0');
input('Button', '(u)', 2);
input('Do', '(s)', 'workspace-next');
input('Do', '(s)', 'overview');
input('Do', '(s)', 'show-desktop');
input('Keys', '(s)', 'ffe3:1 nonsense');
const main = await import(`file://${scratch}/main.js`);
main.sessionMode.isLocked = true;
input('Keys', '(s)', '61:1 61:0');
main.sessionMode.isLocked = false;
// The modifiers: A watches; the bystander, on the same bus, listens without watching.
const {keymap} = await import(`file://${scratch}/clutter.js`);
const bystander = connect();
hear(bystander, 'bystander');
const watchers = Object.fromEntries(['A', 'B', 'C', 'D', 'E', 'F'].map(label => [label, connect()]));
Object.entries(watchers).forEach(([label, other]) => hear(other, label));
modifiers(watchers.A, 'A', 'WatchModifiers');
say(`keymap handlers: ${keymap.handlers.size}`);
pointerMask = 0x40 | 0x100;
settle();
say('keymap state-changed: Super and button 1 held');
keymap.emit('state-changed');
settle();
say('locked');
main.sessionMode.isLocked = true;
main.sessionMode.emit('updated');
settle();
pointerMask = 0x41;
keymap.emit('state-changed');
settle();
say('unlocked');
main.sessionMode.isLocked = false;
main.sessionMode.emit('updated');
settle();
for (const label of ['B', 'C', 'D', 'E'])
    modifiers(watchers[label], label, 'WatchModifiers');
say('B leaves the bus');
watchers.B.close_sync(null);
settle();
modifiers(watchers.E, 'E', 'WatchModifiers');
pointerMask = 0x4;
keymap.emit('state-changed');
settle();
modifiers(watchers.A, 'A', 'UnwatchModifiers');
watchers.C.close_sync(null);
watchers.D.close_sync(null);
watchers.E.close_sync(null);
settle();
say(`keymap handlers: ${keymap.handlers.size}, session mode handlers: ${main.sessionMode.handlers.size}`);
// The shell's own swipes (config.js says 49.0: 3 or more fingers), from one connection
// that stays, as touchgest's does: held back for 4, kept off when the shell turns its
// tracker off and on, given back for none.
const touchgest = connect();
function call(method, signature, values) {
    touchgest.call(bus.get_unique_name(), '/org/touchgest/Input', 'org.touchgest.Input', method, new GLib.Variant(signature, values),
        null, Gio.DBusCallFlags.NONE, 2000, null, (connection, result) => {
            try {
                connection.call_finish(result);
                say(`${method} done`);
            } catch (error) {
                Gio.DBusError.strip_remote_error(error);
                say(`${method} refused: ${error.message}`);
            }
            loop.quit();
        });
    loop.run();
}
say(`swipes fire: ${main.swipes()}`);
call('YieldGestures', '(au)', [[4]]);
say(`swipes fire: ${main.swipes()}`);
main.wm._workspaceAnimation._swipeTracker.enabled = false;
main.wm._workspaceAnimation._swipeTracker.enabled = true;
say(`the shell turned its workspace tracker off and on; swipes fire: ${main.swipes()}`);
call('YieldGestures', '(au)', [[]]);
say(`swipes fire: ${main.swipes()}`);
call('YieldGestures', '(au)', [[2]]);
say(`for 2 fingers, swipes fire: ${main.swipes()}`);
// A follow: the touchpad gesture's own signals, in the tracker's units (400 a workspace
// across, 300 the overview up).
call('Follow', '(ssdu)', ['workspaces', 'begin', 0.1, 1000]);
call('Follow', '(ssdu)', ['workspaces', 'update', 0.5, 1010]);
call('Follow', '(ssdu)', ['workspaces', 'end', 0.6, 1020]);
call('Follow', '(ssdu)', ['overview', 'begin', 0, 2000]);
call('Follow', '(ssdu)', ['overview', 'update', 0.2, 2010]);
call('Follow', '(ssdu)', ['overview', 'cancel', 0.2, 2020]);
call('Follow', '(ssdu)', ['app-grid', 'begin', 0, 3000]);
call('YieldGestures', '(au)', [[3]]);
// The feedback panel: what it shows (its labels, the bar's track and fill, the trail's
// segments), what it refuses, its fade; removed at a lock, refused while locked.
let shownPanel = null;
const panelSays = () => {
    const panel = shownPanel;
    const areas = panel.children.filter(child => child.drawn);
    say(`panel: ${panel.children.filter(child => child.text !== undefined).map(label => label.text).join(' | ')}; `
        + `bar ${areas[0].drawn.join(' ')}; trail ${areas[1].drawn.filter(step => step === 'line').length} segments; `
        + `${areas[1].name} holds ${areas[1].trailPoints} drew ${areas[1].drawnPoints}`);
};
const addTopChrome = main.layoutManager.addTopChrome;
main.layoutManager.addTopChrome = (actor, params) => { shownPanel = actor; addTopChrome(actor, params); };
call('ShowFeedback', '(ssdsad)', ['3 fingers · pan', 'rule pan-3: changed', 0.5, '', [0.1, 0.2, 0.3, 0.4, 0.5, 0.5]]);
panelSays();
call('ShowFeedback', '(ssdsad)', ['1 finger · stroke', 'rule v: recognized', -1, 'v 0.91 fired', []]);
panelSays();
// A follow under the panel: while a lift now would send the animation back (the tracker's
// own end decision lands on its cancel progress), the empty third line says so and the bar
// changes colour; forward again, both clear; the end clears them. A tracker without that
// decision (a shell that renamed it) gives no hint.
const pan = (progress, time) => {
    call('Follow', '(ssdu)', ['workspaces', time === 5000 ? 'begin' : 'update', progress, time]);
    call('ShowFeedback', '(ssdsad)', ['3 fingers · pan', 'rule pan-3: changed', progress, '', []]);
    panelSays();
};
pan(0.1, 5000);
pan(0.6, 5100);
pan(0.2, 5200);
pan(0.7, 5300);
pan(0.2, 5400);
call('Follow', '(ssdu)', ['workspaces', 'end', 0.2, 5500]);
panelSays();
main.overview._swipeTracker._getEndProgress = undefined;
call('Follow', '(ssdu)', ['overview', 'begin', 0.1, 6000]);
panelSays();
call('Follow', '(ssdu)', ['overview', 'end', 0.1, 6100]);
call('ShowFeedback', '(ssdsad)', ['x'.repeat(201), '', -1, '', []]);
call('ShowFeedback', '(ssdsad)', ['', '', 1.5, '', []]);
call('ShowFeedback', '(ssdsad)', ['', '', -1, '', new Array(514).fill(0.5)]);
call('ShowFeedback', '(ssdsad)', ['', '', -1, '', [0.5, 1.2]]);
call('HideFeedback', '(u)', [6000]);
call('HideFeedback', '(u)', [600]);
call('ShowFeedback', '(ssdsad)', ['2 fingers', 'deciding...', -1, '', []]);
say('locked');
main.sessionMode.isLocked = true;
main.sessionMode.emit('updated');
call('ShowFeedback', '(ssdsad)', ['2 fingers', 'deciding...', -1, '', []]);
main.sessionMode.isLocked = false;
say('unlocked');
call('ShowFeedback', '(ssdsad)', ['2 fingers', 'deciding...', -1, '', []]);
// Holding the swipes and in the middle of a follow, touchgest leaves the bus (as a killed
// touchgest does): the follow goes back and the swipes come back.
call('Follow', '(ssdu)', ['workspaces', 'begin', 0.3, 7000]);
say(`swipes fire: ${main.swipes()}`);
say('touchgest leaves the bus');
touchgest.close_sync(null);
settle();
say(`swipes fire: ${main.swipes()}`);
GLib.file_set_contents(`${scratch}/trusted-programs`, '/usr/bin/touchgest\n');
input('Keys', '(s)', '61:1 61:0');
modifiers(watchers.F, 'F', 'WatchModifiers');
extension.disable();
say(`disabled; handlers left connected: ${display.connected}`);
System.exit(0);
