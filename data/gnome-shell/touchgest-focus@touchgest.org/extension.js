// Tells touchgest which window has the focus (touchgest --focus gnome): exports
//   /org/touchgest/Focus  org.touchgest.Focus
//     GetFocus() -> (s wm_class, s title)
//     signal FocusChanged(s wm_class, s title)
// on the session bus, inside GNOME Shell (name org.gnome.Shell). An empty class is no
// window. Install with `make install` (or copy this folder to
// ~/.local/share/gnome-shell/extensions/), then
// `gnome-extensions enable touchgest-focus@touchgest.org`.
import GLib from 'gi://GLib';
import Gio from 'gi://Gio';
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

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

export default class TouchgestFocus extends Extension {
    enable() {
        this._window = null;
        this._titleSignal = 0;
        this._object = Gio.DBusExportedObject.wrapJSObject(FocusInterface, this);
        this._object.export(Gio.DBus.session, '/org/touchgest/Focus');
        this._focusSignal = global.display.connect('notify::focus-window', () => this._focused());
        this._focused();
    }

    disable() {
        global.display.disconnect(this._focusSignal);
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
        return [window.get_wm_class() ?? '', window.get_title() ?? ''];
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
