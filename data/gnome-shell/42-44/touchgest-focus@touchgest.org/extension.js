// Tells touchgest which window has the focus (touchgest --focus gnome), on GNOME Shell
// 42, 43 and 44, which load extensions as scripts with `imports` (45 and later load ES
// modules: ../../45-50/ is the same extension for them). Exports
//   /org/touchgest/Focus  org.touchgest.Focus
//     GetFocus() -> (s wm_class, s title)
//     signal FocusChanged(s wm_class, s title)
// on the session bus, inside GNOME Shell (name org.gnome.Shell). An empty class is no
// window. Install with `make install` (it picks the flavour for the GNOME Shell it
// finds), then `gnome-extensions enable touchgest-focus@touchgest.org`.
//
// It stays enabled on the lock screen (metadata.json's session-modes), where the focus
// is no window: GNOME Shell disables every other extension while locked, which touchgest
// would report as the extension being off at every lock.
'use strict';

const {Gio, GLib} = imports.gi;

const FocusInterface = `
<node>
  <interface name="org.touchgest.Focus">
    <method name="GetFocus">
      <arg type="s" direction="out" name="wm_class"/>
      <arg type="s" direction="out" name="title"/>
    </method>
    <signal name="FocusChanged">
      <arg type="s" name="wm_class"/>
      <arg type="s" name="title"/>
    </signal>
  </interface>
</node>`;

class TouchgestFocus {
    enable() {
        this._window = null;
        this._titleSignal = 0;
        this._object = Gio.DBusExportedObject.wrapJSObject(FocusInterface, this);
        this._object.export(Gio.DBus.session, '/org/touchgest/Focus');
        // Meta.Display's focus-window: the window with the keyboard focus, or null.
        this._focusSignal = global.display.connect('notify::focus-window', () => this._focused());
        this._focused();
    }

    disable() {
        global.display.disconnect(this._focusSignal);
        this._focusSignal = 0;
        this._watch(null);
        this._object.unexport();
        this._object = null;
    }

    GetFocus() {
        return this._current();
    }

    _current() {
        const window = global.display.focus_window;
        if (!window)
            return ['', ''];
        return [window.get_wm_class() || '', window.get_title() || ''];
    }

    _watch(window) {
        if (this._window && this._titleSignal)
            this._window.disconnect(this._titleSignal);
        this._window = window;
        this._titleSignal = window ? window.connect('notify::title', () => this._emit()) : 0;
    }

    _focused() {
        this._watch(global.display.focus_window);
        this._emit();
    }

    _emit() {
        const [wmClass, title] = this._current();
        this._object.emit_signal('FocusChanged', new GLib.Variant('(ss)', [wmClass, title]));
    }
}

/** GNOME Shell 42-44 call this once, then enable() and disable() on what it returns. */
function init() {
    return new TouchgestFocus();
}
