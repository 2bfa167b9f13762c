// For touchgest's tests only (rig/headless-gnome), on GNOME Shell 43: headless GNOME
// Shell has no input device, so it gives a new window no focus; this extension does, as
// a click would, and lets a test move the focus on the session bus:
//   /org/touchgest/Rig  org.touchgest.Rig
//     Activate(s wm_class) -> (b found)   the newest window of that class takes the focus
//     Workspace(i index)                 that workspace is shown (an empty one: no window)
//     Focused() -> (s wm_class, s title)  the window with the focus, whatever
//                                         touchgest's own extension says
//     Shown() -> (i workspace, b overview) the active workspace, and whether the overview is shown
//     Lock()                             the shell locks: its lock screen, or its locked
//                                         session mode where it made none (headless)
//     Locked() -> (b locked)             whether the session is in its locked mode
//     signal WorkspaceChanged(i index)   another workspace is shown (active-workspace-changed),
//                                         for scripts/measure-action-latency
//     Key(u keysym, b pressed)           a key pressed or released on a virtual keyboard of the
//                                         shell's own seat, as a keyboard would: the seat's
//                                         modifier state follows it
//     Modifiers() -> (u mask)            global.get_pointer()'s modifier mask, as the shell has it
//     Swipes() -> (b workspaces, b overview)  whether the shell's own touchpad swipes fire: the
//                                         `enabled` of the touchpad gesture of the workspace
//                                         switch's and the overview's swipe trackers, which the
//                                         gesture reads at each touchpad swipe event
//     SwitchLog() -> (as lines)          what the workspace switch did since the last call, in
//                                         order (at most 1000 lines): "progress P" at each change
//                                         of the shell's own animation while a swipe moves it (0
//                                         the first workspace, 1 the second), "end W" where the
//                                         shell settles a swipe (workspace W), "workspace N" at
//                                         each workspace shown
//     OverviewLog() -> (as lines)        the same for the overview: "progress P" at each change of
//                                         the overview's animation while a swipe moves it (its
//                                         controls' state: 0 hidden, 1 the overview, 2 the app
//                                         grid), "end P" where the shell settles a swipe, "shown"
//                                         and "hidden" when the overview has finished showing or
//                                         hiding (Main.overview.visible is then true or false)
//     ProgressTimes() -> (as lines)      since the last call, at each touchpad swipe update either
//                                         tracker took (the shell's own or a follow's): "A P T N",
//                                         the animation (workspaces or overview), its progress once
//                                         the shell's handlers have set it, the update's event time
//                                         (ms, the input's clock) and GLib.get_monotonic_time() then
//                                         (us, CLOCK_MONOTONIC): for scripts/measure-follow-lag
//     Feedback() -> (s state)            touchgest's feedback panel as the shell has it, read from the
//                                         stage (the actor named touchgest-feedback), not from touchgest's
//                                         extension: "none" where there is none, else "shown" (mapped) or
//                                         "hidden", then "opacity N reactive B at X,Y WxH trail P drawn D:"
//                                         (the points its trail's area holds, and those its last
//                                         repaint drew, as that area tells them) and its labels'
//                                         texts joined by " | "
//     LastFeedback() -> (s state)        the last panel as it was when it was destroyed (the headless
//                                         shell fades at once, so what it showed after the lift is
//                                         seen only here): "trail P drawn D: " and its lines, or "none"
//                                         while none was destroyed since the newest one was made
// It stays enabled on the lock screen (metadata.json), so that a test can ask.
'use strict';

const {Clutter, Gio, GLib, St} = imports.gi;
const Main = imports.ui.main;

const RigInterface = `
<node>
  <interface name="org.touchgest.Rig">
    <method name="Activate">
      <arg type="s" direction="in" name="wm_class"/>
      <arg type="b" direction="out" name="found"/>
    </method>
    <method name="Workspace">
      <arg type="i" direction="in" name="index"/>
    </method>
    <method name="Focused">
      <arg type="s" direction="out" name="wm_class"/>
      <arg type="s" direction="out" name="title"/>
    </method>
    <method name="Shown">
      <arg type="i" direction="out" name="workspace"/>
      <arg type="b" direction="out" name="overview"/>
    </method>
    <method name="Lock"/>
    <method name="Locked">
      <arg type="b" direction="out" name="locked"/>
    </method>
    <method name="Key">
      <arg type="u" direction="in" name="keysym"/>
      <arg type="b" direction="in" name="pressed"/>
    </method>
    <method name="Modifiers">
      <arg type="u" direction="out" name="mask"/>
    </method>
    <method name="Swipes">
      <arg type="b" direction="out" name="workspaces"/>
      <arg type="b" direction="out" name="overview"/>
    </method>
    <method name="SwitchLog">
      <arg type="as" direction="out" name="lines"/>
    </method>
    <method name="OverviewLog">
      <arg type="as" direction="out" name="lines"/>
    </method>
    <method name="Feedback">
      <arg type="s" direction="out" name="state"/>
    </method>
    <method name="LastFeedback">
      <arg type="s" direction="out" name="state"/>
    </method>
    <method name="ProgressTimes">
      <arg type="as" direction="out" name="lines"/>
    </method>
    <signal name="WorkspaceChanged">
      <arg type="i" name="index"/>
    </signal>
  </interface>
</node>`;

class TouchgestRig {
    enable() {
        this._object = Gio.DBusExportedObject.wrapJSObject(RigInterface, this);
        this._object.export(Gio.DBus.session, '/org/touchgest/Rig');
        this._created = global.display.connect('window-created', (display, window) => {
            // Activated once mutter has shown it: at window-created it is not on the
            // stage yet, and an activation then can be lost.
            const id = window.connect('shown', () => {
                window.disconnect(id);
                Main.activateWindow(window);
            });
        });
        // After the workspace animation's own update handler: the progress it has set.
        this._tracker = Main.wm._workspaceAnimation._swipeTracker;
        this._switchLog = [];
        this._progress = this._tracker.connect('update', () => {
            const switchData = Main.wm._workspaceAnimation._switchData;
            if (switchData?.baseMonitorGroup)
                this._log(`progress ${switchData.baseMonitorGroup.progress}`);
        });
        this._ended = this._tracker.connect('end', (tracker, duration, endProgress) => this._log(`end ${endProgress}`));
        // The overview's, after its own handlers (Overview._gestureUpdate sets the state).
        this._overviewTracker = Main.overview._swipeTracker;
        this._overviewLog = [];
        this._overviewHandlers = [
            [this._overviewTracker, this._overviewTracker.connect('update', () =>
                this._log(`progress ${this._overviewProgress()}`, this._overviewLog))],
            [this._overviewTracker, this._overviewTracker.connect('end', (tracker, duration, endProgress) =>
                this._log(`end ${endProgress}`, this._overviewLog))],
            [Main.overview, Main.overview.connect('shown', () => this._log('shown', this._overviewLog))],
            [Main.overview, Main.overview.connect('hidden', () => this._log('hidden', this._overviewLog))],
        ];
        // Connected after the tracker's own handler of its touchpad gesture: by then the
        // tracker has emitted its update and the animation has taken the new progress.
        this._progressTimes = [];
        this._timed = [['workspaces', this._tracker], ['overview', this._overviewTracker]].map(([name, tracker]) => {
            const gesture = tracker._touchpadGesture;
            return [gesture, gesture.connect('update', (source, time) =>
                this._log(`${name} ${this._animationProgress(name)} ${time} ${GLib.get_monotonic_time()}`, this._progressTimes))];
        });
        // touchgest's panel, each as it is added to the shell's top chrome (ClutterContainer's
        // actor-added, GNOME 43), remembered as it was at its destroy (before its children go).
        this._lastFeedback = 'none';
        this._chrome = Main.layoutManager.uiGroup.connect('actor-added', (group, actor) => {
            if (actor.get_name() !== 'touchgest-feedback')
                return;
            this._lastFeedback = 'none';
            actor.connect('destroy', () => {
                this._lastFeedback = this._panelLines(actor);
            });
        });
        const manager = global.workspace_manager;
        this._workspace = manager.connect('active-workspace-changed', () => {
            this._object.emit_signal('WorkspaceChanged', new GLib.Variant('(i)', [manager.get_active_workspace_index()]));
            this._log(`workspace ${manager.get_active_workspace_index()}`);
        });
    }

    disable() {
        global.display.disconnect(this._created);
        global.workspace_manager.disconnect(this._workspace);
        Main.layoutManager.uiGroup.disconnect(this._chrome);
        this._tracker.disconnect(this._progress);
        this._tracker.disconnect(this._ended);
        for (const [object, id] of [...this._overviewHandlers, ...this._timed])
            object.disconnect(id);
        this._object.unexport();
        this._object = null;
        this._keyboard = null;
    }

    Activate(wmClass) {
        const windows = global.display.list_all_windows().filter(w => w.get_wm_class() === wmClass);
        if (windows.length === 0)
            return false;
        Main.activateWindow(windows[windows.length - 1]);
        return true;
    }

    Focused() {
        const window = global.display.focus_window;
        return window ? [window.get_wm_class() || '', window.get_title() || ''] : ['', ''];
    }

    Shown() {
        return [global.workspace_manager.get_active_workspace_index(), Main.overview.visible];
    }

    Lock() {
        // The shell's own lock screen needs a display manager and logind's seats, which
        // this rig does not fake (rig/gnome-shell-lock does): without them the shell makes
        // no screen shield, and the rig puts the shell in the session mode its lock
        // screen sets, unlock-dialog, in which Main.sessionMode.isLocked is true.
        if (Main.screenShield)
            Main.screenShield.lock(false);
        else
            Main.sessionMode.pushMode('unlock-dialog');
    }

    Locked() {
        return Main.sessionMode.isLocked;
    }

    Key(keysym, pressed) {
        if (!this._keyboard)
            this._keyboard = Clutter.get_default_backend().get_default_seat().create_virtual_device(Clutter.InputDeviceType.KEYBOARD_DEVICE);
        this._keyboard.notify_keyval(GLib.get_monotonic_time(), keysym, pressed ? Clutter.KeyState.PRESSED : Clutter.KeyState.RELEASED);
    }

    _log(line, log = this._switchLog) {
        if (log.length < 1000)
            log.push(line);
    }

    SwitchLog() {
        return this._switchLog.splice(0);
    }

    OverviewLog() {
        return this._overviewLog.splice(0);
    }

    ProgressTimes() {
        return this._progressTimes.splice(0);
    }

    /** The overview's animation: its controls' state (0 hidden, 1 the overview, 2 the app grid). */
    _overviewProgress() {
        return Main.overview._overview.controls._stateAdjustment.value;
    }

    /** Where the animation `name` stands; NaN where no workspace switch is under way. */
    _animationProgress(name) {
        if (name === 'overview')
            return this._overviewProgress();
        return Main.wm._workspaceAnimation._switchData?.baseMonitorGroup?.progress ?? NaN;
    }

    Swipes() {
        return [Main.wm._workspaceAnimation._swipeTracker._touchpadGesture.enabled,
            Main.overview._swipeTracker._touchpadGesture.enabled];
    }

    Feedback() {
        const find = actor => {
            if (actor.get_name() === 'touchgest-feedback')
                return actor;
            for (const child of actor.get_children()) {
                const found = find(child);
                if (found)
                    return found;
            }
            return null;
        };
        const panel = find(global.stage);
        if (!panel)
            return 'none';
        const [x, y] = panel.get_transformed_position();
        const [width, height] = panel.get_transformed_size();
        return `${panel.is_mapped() ? 'shown' : 'hidden'} opacity ${panel.opacity} reactive ${panel.reactive} `
            + `at ${Math.round(x)},${Math.round(y)} ${Math.round(width)}x${Math.round(height)} ${this._panelLines(panel)}`;
    }

    LastFeedback() {
        return this._lastFeedback;
    }

    /** "trail P drawn D: " and the panel's lines; "?" for a count its trail's area does not tell. */
    _panelLines(panel) {
        const children = panel.get_children();
        const texts = children.filter(child => child instanceof St.Label).map(label => label.text);
        const trail = children.find(child => child.get_name() === 'touchgest-feedback-trail');
        return `trail ${trail?.trailPoints ?? '?'} drawn ${trail?.drawnPoints ?? '?'}: ${texts.join(' | ')}`;
    }

    Modifiers() {
        return global.get_pointer()[2];
    }

    Workspace(index) {
        const manager = global.workspace_manager;
        while (manager.n_workspaces <= index)
            manager.append_new_workspace(false, global.get_current_time());
        manager.get_workspace_by_index(index).activate(global.get_current_time());
    }
}

function init() {
    return new TouchgestRig();
}
