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
//
// It also takes touchgest's keys, clicks and desktop actions, on
//   /org/touchgest/Input  org.touchgest.Input
//     Keys(s strokes)   "KEYSYM:1 KEYSYM:0 ...": keysyms in hex, pressed (1) or released (0),
//                       through a virtual keyboard of the shell's own seat
//     Button(u button)  a click: 1 left, 2 middle, 3 right, 8 back, 9 forward
//     Do(s action)      a desktop action by touchgest's name: workspace-next, overview, ...
//     WatchModifiers() -> (u mask)  the caller follows the modifier keys held: their mask now,
//                       then signal ModifiersChanged(u mask) at each change, sent to the
//                       caller alone (a unicast signal, never broadcast: when Shift is held
//                       while a password is typed is nobody else's business); at most
//                       MAXIMUM_WATCHERS callers, each dropped when its name leaves the bus
//     UnwatchModifiers() the caller follows them no more
//                       The mask is Clutter's (ClutterModifierType) with only the key bits:
//                       Shift 1<<0, Lock 1<<1, Control 1<<2, Mod1-Mod5 1<<3-1<<7 (Alt is
//                       Mod1, Super Mod4 on every standard keymap), Super 1<<26, Hyper 1<<27,
//                       Meta 1<<28; never which key changed it. While the screen is locked
//                       it is 0 and no change is sent.
//     YieldGestures(au fingers) the shell's own touchpad swipes (the workspace switch's and
//                       the overview's) stop firing for these numbers of fingers, until the
//                       caller asks for none, leaves the bus (however it ended) or this
//                       extension is disabled (docs/desktop-gestures.md)
//     Follow(s animation, s phase, d progress, u time)  moves the shell's own animation,
//                       "workspaces" or "overview", as its own touchpad swipe would: phase
//                       begin, update, end or cancel; progress in whole workspaces (or the
//                       overview) since the begin, positive towards the next workspace and
//                       the open overview; time in milliseconds of the input's clock, from
//                       which the shell reads the fingers' speed at the end and decides, by its
//                       own rules, whether to finish or go back. A follow under way when its
//                       caller leaves the bus goes back.
//     ShowFeedback(s headline, s decision, d progress, s verdict, ad trail)  shows touchgest's
//                       feedback panel (`feedback = "on"`, docs/overlay.md) in the top right
//                       corner, or changes what it shows: its first two lines, a progress bar
//                       (progress 0 to 1, or -1 for none), a third line (a stroke's verdict, or
//                       empty) and a stroke's trail as x0, y0, x1, y1, ... (each 0 to 1, at most
//                       MAXIMUM_TRAIL_POINTS points). Lines of at most MAXIMUM_FEEDBACK_TEXT
//                       characters; anything else is refused. The panel takes no input (clicks
//                       go to what is beneath) and is removed at once when the screen locks.
//                       While a Follow is under way and the shell would send its animation back
//                       if the fingers lifted now (its tracker's own end decision), the third
//                       line, when empty, says HINT_TEXT and the bar is drawn in HINT_COLOUR.
//                       The trail's area (the panel's child named TRAIL_NAME) tells, read-only, the
//                       points it holds (trailPoints) and those its last repaint drew (drawnPoints).
//     HideFeedback(u milliseconds)  the panel fades out over that time (at most
//                       MAXIMUM_FADE_MS), then is destroyed: nothing of it stays. When its caller
//                       leaves the bus without hiding it, it fades by itself (ORPHAN_FADE_MS).
// from touchgest only: the caller's process must run one of the programs named in
// trusted-programs beside this file (one absolute path a line; without the file,
// /usr/bin/touchgest and /usr/local/bin/touchgest), as /proc/PID/exe shows it. A caller
// once found to be touchgest is trusted for as long as it keeps its bus name (a unique
// name is never given again). Nothing is done while the screen is locked, whatever the
// caller (a watch is taken, and tells nothing until the screen is unlocked). A refusal is
// the D-Bus error org.touchgest.Input.Refused, saying why.
//
// Where the modifiers come from: the seat's state, global.get_pointer()'s mask (mutter
// serializes xkb's effective modifiers there, with the pointer's buttons, which are left
// out). Mutter 49 and later signal each change on the seat's keymap (state-changed); 48 and
// older signal there only Caps Lock and Num Lock, so there the mask is read every
// MODIFIERS_POLL_MS while (and only while) someone follows it (docs/focus.md).
'use strict';

const {Clutter, Gio, GLib, Meta, St} = imports.gi;
const Main = imports.ui.main;
const ExtensionUtils = imports.misc.extensionUtils;

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

const InputInterface = `
<node>
  <interface name="org.touchgest.Input">
    <method name="Keys">
      <arg type="s" direction="in" name="strokes"/>
    </method>
    <method name="Button">
      <arg type="u" direction="in" name="button"/>
    </method>
    <method name="Do">
      <arg type="s" direction="in" name="action"/>
    </method>
    <method name="WatchModifiers">
      <arg type="u" direction="out" name="mask"/>
    </method>
    <method name="UnwatchModifiers"/>
    <method name="YieldGestures">
      <arg type="au" direction="in" name="fingers"/>
    </method>
    <method name="ShowFeedback">
      <arg type="s" direction="in" name="headline"/>
      <arg type="s" direction="in" name="decision"/>
      <arg type="d" direction="in" name="progress"/>
      <arg type="s" direction="in" name="verdict"/>
      <arg type="ad" direction="in" name="trail"/>
    </method>
    <method name="HideFeedback">
      <arg type="u" direction="in" name="milliseconds"/>
    </method>
    <method name="Follow">
      <arg type="s" direction="in" name="animation"/>
      <arg type="s" direction="in" name="phase"/>
      <arg type="d" direction="in" name="progress"/>
      <arg type="u" direction="in" name="time"/>
    </method>
    <signal name="ModifiersChanged">
      <arg type="u" name="mask"/>
    </signal>
  </interface>
</node>`;

/** Most strokes one Keys call may carry: touchgest sends a long text in pieces. */
const MAXIMUM_STROKES = 4096;
/** Most calls waiting for their turn: more are refused. */
const MAXIMUM_WAITING_CALLS = 64;
/** Most callers remembered as touchgest: the set starts over past it. */
const MAXIMUM_TRUSTED_SENDERS = 16;
/** Most callers following the modifiers at once: more are refused (one touchgest needs one). */
const MAXIMUM_WATCHERS = 4;
/**
 * How often the modifiers are read, in milliseconds, where the shell's keymap does not
 * signal their changes (GNOME 48 and older): a key pressed 50 ms before a gesture's fingers
 * move is seen in time, and the shell wakes for it only while touchgest follows them.
 */
const MODIFIERS_POLL_MS = 50;
/** Whether the seat's keymap signals every modifier change: not on GNOME 42-44 (mutter 49 began to). */
const KEYMAP_SIGNALS_MODIFIERS = false;
/** Whether the shell's own touchpad swipe takes 3 or more fingers (GNOME 47 and later), not exactly 3 (42-46). */
const SWIPES_TAKE_MORE_FINGERS = false;
/** The fewest fingers of the shell's own touchpad swipe (swipeTracker.js GESTURE_FINGER_COUNT). */
const SWIPE_FINGERS = 3;
/**
 * The touchpad motion the shell takes for one whole workspace (horizontal) or the
 * overview (vertical) (swipeTracker.js TOUCHPAD_BASE_WIDTH and _HEIGHT, 42 to 50): a
 * follow's progress is handed on in these units, so that the shell's own thresholds of
 * speed read it as they read its own swipe.
 */
const TOUCHPAD_BASE_WIDTH = 400;
const TOUCHPAD_BASE_HEIGHT = 300;
/** Most numbers of fingers one YieldGestures call may name. */
const MAXIMUM_YIELDED = 10;
/** Most characters (UTF-16 code units) of one line of the feedback panel: touchgest's OverlayDefaults.maximumFeedbackText. */
const MAXIMUM_FEEDBACK_TEXT = 200;
/** Most points of the feedback panel's trail: touchgest's OverlayDefaults.maximumTrailPoints. */
const MAXIMUM_TRAIL_POINTS = 256;
/** The longest fade HideFeedback takes, in milliseconds. */
const MAXIMUM_FADE_MS = 5000;
/** How long the panel fades when its caller left the bus without hiding it: touchgest's own fade. */
const ORPHAN_FADE_MS = 600;
/**
 * The feedback panel as touchgest draws it elsewhere (its OverlayDefaults and
 * OverlayPainter): 320x96 pixels, 16 from the right edge and below the top bar, the
 * progress bar's and the trail's boxes in it (x, y, width, height), and its colours.
 */
const PANEL_WIDTH = 320;
const PANEL_HEIGHT = 96;
const PANEL_MARGIN = 16;
const BAR_BOX = [10, 56, 210, 10];
const TRAIL_BOX = [230, 8, 80, 80];
const TRACK_COLOUR = [0x3a, 0x40, 0x4c];
const BAR_COLOUR = [0x4c, 0xa3, 0xff];
/** The bar's colour, and the third line, while lifting now would send a follow back. */
const HINT_COLOUR = [0xf0, 0x6c, 0x4c];
const HINT_TEXT = 'lift now: cancelled';
/** swipeTracker.js State.SCROLLING (42 to 50): the tracker confirmed the swipe and moves its animation. */
const TRACKER_SCROLLING = 1;
const TRAIL_COLOUR = [0xff, 0xc8, 0x3c];
/** The name of the trail's area, in the panel (named touchgest-feedback). */
const TRAIL_NAME = 'touchgest-feedback-trail';

/** The key bits of Clutter's modifier mask: Shift, Lock, Control, Mod1-Mod5, Super, Hyper, Meta. */
const MODIFIER_BITS = 0xff | (1 << 26) | (1 << 27) | (1 << 28);

/**
 * The shell's own touchpad swipes (js/ui/swipeTracker.js): the workspace switch's tracker
 * (Main.wm._workspaceAnimation._swipeTracker, horizontal) and the overview's
 * (Main.overview._swipeTracker, vertical), each a SwipeTracker whose _touchpadGesture
 * turns the touchpad's swipes into its begin, update and end signals.
 *
 * Held back by that touchpad gesture's `enabled`, which the tracker copies its own
 * `enabled` into (a one-way binding): the shell turns a tracker off and on by itself (the
 * workspace switch's while an animation runs and while the overview shows), and after each
 * such change the gesture is turned off again; the tracker's touchscreen swipe and
 * Super+scroll stay as they are. Given back: the gesture takes the tracker's `enabled`.
 *
 * A follow drives the same touchpad gesture's signals with touchgest's progress and
 * times, so the tracker does what it does for its own swipe: the animation's handlers
 * confirm the swipe, its progress is clamped to the neighbouring snap points, and at the
 * end its own velocity rules pick where the animation settles.
 */
class ShellGestures {
    constructor() {
        /** The caller holding the swipes back or following: its unique name and its name watch. */
        this._holder = null;
        this._holdWatch = 0;
        /** tracker -> its notify::enabled handler, while its touchpad swipe is held back. */
        this._held = new Map();
        /** The follow under way: {tracker, gesture, distance, progress, time}, or null. */
        this._following = null;
        /** Told whether a lift now would send the follow back: after each move, and false at its end. */
        this.onTurn = () => {};
    }

    /** The shell's trackers by the name a follow gives them (absent ones left out). */
    _trackers() {
        const trackers = {
            workspaces: Main.wm._workspaceAnimation?._swipeTracker,
            overview: Main.overview._swipeTracker,
        };
        return Object.fromEntries(Object.entries(trackers).filter(([, tracker]) => tracker?._touchpadGesture));
    }

    /** Whether the shell's touchpad swipe takes a swipe of `count` fingers. */
    _taken(count) {
        return SWIPES_TAKE_MORE_FINGERS ? count >= SWIPE_FINGERS : count === SWIPE_FINGERS;
    }

    /** Remembers `sender` as the caller, and gives everything back when it leaves the bus. */
    _hold(sender) {
        if (this._holder === sender)
            return;
        this._unwatch();
        this._holder = sender;
        this._holdWatch = Gio.bus_watch_name_on_connection(Gio.DBus.session, sender, Gio.BusNameWatcherFlags.NONE,
            null, () => this.release());
    }

    _unwatch() {
        if (this._holdWatch)
            Gio.bus_unwatch_name(this._holdWatch);
        this._holdWatch = 0;
        this._holder = null;
    }

    yield(sender, fingers) {
        if (fingers.length > MAXIMUM_YIELDED)
            throw new Error(`more than ${MAXIMUM_YIELDED} numbers of fingers`);
        const takes = fingers.some(count => this._taken(count));
        if (takes || this._following)
            this._hold(sender);
        else if (this._holder === sender)
            this._unwatch();
        for (const tracker of Object.values(this._trackers())) {
            if (takes)
                this._holdBack(tracker);
            else
                this._giveBack(tracker);
        }
    }

    _holdBack(tracker) {
        if (this._held.has(tracker))
            return;
        // After the binding's own handler, which copies the tracker's value first.
        this._held.set(tracker, tracker.connect('notify::enabled', () => {
            tracker._touchpadGesture.enabled = false;
        }));
        tracker._touchpadGesture.enabled = false;
    }

    _giveBack(tracker) {
        const handler = this._held.get(tracker);
        if (handler === undefined)
            return;
        tracker.disconnect(handler);
        this._held.delete(tracker);
        tracker._touchpadGesture.enabled = tracker.enabled;
    }

    /** Everything back as the shell had it: its swipes, and any follow under way goes back. */
    release() {
        if (this._following)
            this._end(this._following.time, true);
        for (const tracker of [...this._held.keys()])
            this._giveBack(tracker);
        this._unwatch();
    }

    follow(sender, animation, phase, progress, time) {
        if (!Number.isFinite(progress))
            throw new Error('the progress is not a number');
        if (phase === 'begin') {
            const tracker = this._trackers()[animation];
            if (!tracker)
                throw new Error(`GNOME Shell has no ${animation.slice(0, 64)} swipe`);
            if (this._following)
                this._end(this._following.time, true);
            this._hold(sender);
            const gesture = tracker._touchpadGesture;
            const distance = tracker.orientation === Clutter.Orientation.VERTICAL ? TOUCHPAD_BASE_HEIGHT : TOUCHPAD_BASE_WIDTH;
            const [x, y] = global.get_pointer();
            this._following = {tracker, gesture, distance, progress: 0, time};
            gesture.emit('begin', time, x, y);
            this._move(progress, time);
            return;
        }
        if (!this._following)
            return;
        switch (phase) {
        case 'update':
            this._move(progress, time);
            break;
        case 'end':
            this._move(progress, time);
            this._end(time, false);
            break;
        case 'cancel':
            this._end(time, true);
            break;
        default:
            throw new Error(`no phase ${phase.slice(0, 64)}; expected begin, update, end or cancel`);
        }
    }

    _move(progress, time) {
        const following = this._following;
        if (progress === following.progress)
            return;
        following.gesture.emit('update', time, (progress - following.progress) * following.distance, following.distance);
        following.progress = progress;
        following.time = time;
        this.onTurn(ShellGestures._goesBack(following));
    }

    /**
     * Whether the shell would send the animation back if the fingers lifted now: the
     * tracker's own end decision (swipeTracker.js _getEndProgress, from the speed its event
     * history reads, as at its end) lands where its cancel would (its cancel progress). The
     * rule is the shell's, asked, never copied. False where the tracker did not take the
     * swipe, or lacks these (a shell that renamed them): no hint rather than a guess.
     */
    static _goesBack({tracker, distance}) {
        if (tracker._state !== TRACKER_SCROLLING || typeof tracker._getEndProgress !== 'function'
            || typeof tracker._history?.calculateVelocity !== 'function')
            return false;
        return tracker._getEndProgress(tracker._history.calculateVelocity(), distance, true) === tracker._cancelProgress;
    }

    /** Ends the follow: the shell decides where it settles, or (`back`) it goes back where it began. */
    _end(time, back) {
        const {tracker, gesture, distance} = this._following;
        this._following = null;
        // The tracker's own cancel (a touchscreen swipe's): the end goes to the progress
        // the swipe began from, whatever the speed (swipeTracker.js _getEndProgress).
        // A tracker that took no swipe (the shell refused it) ends nothing and keeps the
        // flag: it is cleared again, not to send its next own swipe back.
        if (back)
            tracker._cancelled = true;
        gesture.emit('end', time, distance);
        tracker._cancelled = false;
        this.onTurn(false);
    }
}

/**
 * touchgest's feedback panel: St actors in the shell's top chrome, made at the first
 * ShowFeedback and destroyed once faded. Not reactive, and not in the input region: the
 * pointer's events go to whatever is beneath it.
 */
class FeedbackPanel {
    /** `locked`: whether the screen is locked now. */
    constructor(locked) {
        this._locked = locked;
        this._panel = null;
        this._fading = false;
        this._progress = -1;
        this._trail = [];
        /** The trail's points the last repaint of the trail's area drew (none under 2). */
        this._drawnPoints = 0;
        this._verdictText = '';
        /** A follow under way would go back if the fingers lifted now (ShellGestures.onTurn). */
        this._goesBack = false;
        /** The caller whose panel it is, and the watch on its name. */
        this._owner = null;
        this._ownerWatch = 0;
        this._sessionSignal = 0;
    }

    show(sender, headline, decision, progress, verdict, trail) {
        for (const [name, line] of [['headline', headline], ['decision', decision], ['verdict', verdict]]) {
            if (line.length > MAXIMUM_FEEDBACK_TEXT)
                throw new Error(`the ${name} is longer than ${MAXIMUM_FEEDBACK_TEXT} characters`);
        }
        if (progress !== -1 && !(progress >= 0 && progress <= 1))
            throw new Error(`progress ${progress} is neither -1 nor within 0 to 1`);
        if (trail.length % 2 !== 0 || trail.length > 2 * MAXIMUM_TRAIL_POINTS)
            throw new Error(`a trail of ${trail.length} numbers; expected x, y pairs, at most ${MAXIMUM_TRAIL_POINTS}`);
        if (!trail.every(value => value >= 0 && value <= 1))
            throw new Error('a trail point is outside 0 to 1');
        this._own(sender);
        if (!this._panel)
            this._make();
        this._panel.remove_all_transitions();
        this._panel.opacity = 255;
        this._fading = false;
        this._headline.text = headline;
        this._decision.text = decision;
        this._verdictText = verdict;
        this._verdict.text = this._thirdLine();
        this._progress = progress;
        this._trail = trail;
        this._bar.queue_repaint();
        this._trailArea.queue_repaint();
    }

    /** A follow would (or would no longer) go back if the fingers lifted now. */
    hint(goesBack) {
        if (goesBack === this._goesBack)
            return;
        this._goesBack = goesBack;
        if (!this._panel)
            return;
        this._verdict.text = this._thirdLine();
        this._bar.queue_repaint();
    }

    /** A stroke's verdict, or the hint while a follow would go back. */
    _thirdLine() {
        return this._goesBack && this._verdictText === '' ? HINT_TEXT : this._verdictText;
    }

    hide(milliseconds) {
        if (milliseconds > MAXIMUM_FADE_MS)
            throw new Error(`a fade of ${milliseconds} ms; at most ${MAXIMUM_FADE_MS}`);
        this._unown();
        const panel = this._panel;
        // A fade under way goes on as it is.
        if (!panel || this._fading)
            return;
        this._fading = true;
        panel.ease({opacity: 0, duration: milliseconds, mode: Clutter.AnimationMode.LINEAR, onComplete: () => this._remove(panel)});
    }

    /** The panel goes at once, and nothing is watched (the extension is disabled). */
    destroy() {
        this._unown();
        if (this._panel)
            this._remove(this._panel);
    }

    _own(sender) {
        if (this._owner === sender)
            return;
        this._unown();
        this._owner = sender;
        this._ownerWatch = Gio.bus_watch_name_on_connection(Gio.DBus.session, sender, Gio.BusNameWatcherFlags.NONE,
            null, () => this.hide(ORPHAN_FADE_MS));
    }

    _unown() {
        if (this._ownerWatch)
            Gio.bus_unwatch_name(this._ownerWatch);
        this._ownerWatch = 0;
        this._owner = null;
    }

    _make() {
        const monitor = Main.layoutManager.primaryMonitor;
        const panel = new St.Widget({
            name: 'touchgest-feedback', reactive: false, width: PANEL_WIDTH, height: PANEL_HEIGHT,
            x: monitor.x + monitor.width - PANEL_WIDTH - PANEL_MARGIN,
            y: monitor.y + Main.layoutManager.panelBox.height + PANEL_MARGIN,
            style: 'background-color: rgb(30, 34, 42); border-radius: 6px;',
        });
        const label = (y, style) => {
            const made = new St.Label({x: BAR_BOX[0], y, width: BAR_BOX[2], style});
            panel.add_child(made);
            return made;
        };
        this._headline = label(6, 'color: #ffffff; font-weight: bold; font-size: 15px;');
        this._decision = label(30, 'color: #d9dee6; font-size: 13px;');
        this._verdict = label(70, 'color: #ffffff; font-size: 13px;');
        const area = ([x, y, width, height], paint) => {
            const made = new St.DrawingArea({x, y, width, height});
            made.connect('repaint', () => {
                const cr = made.get_context();
                paint(cr, width, height);
                cr.$dispose();
            });
            panel.add_child(made);
            return made;
        };
        this._bar = area(BAR_BOX, (cr, width, height) => this._paintBar(cr, width, height));
        this._trailArea = area(TRAIL_BOX, (cr, width, height) => this._paintTrail(cr, width, height));
        // Read-only, for whoever reads the panel back from the stage (the rig's tests):
        // the trail's points it holds, and those its last repaint drew.
        this._trailArea.set_name(TRAIL_NAME);
        this._drawnPoints = 0;
        Object.defineProperties(this._trailArea, {
            trailPoints: {get: () => this._trail.length / 2},
            drawnPoints: {get: () => this._drawnPoints},
        });
        // Above the windows, outside the input region and the struts.
        Main.layoutManager.addTopChrome(panel, {affectsInputRegion: false, affectsStruts: false, trackFullscreen: false});
        this._panel = panel;
        this._fading = false;
        this._sessionSignal = Main.sessionMode.connect('updated', () => {
            if (this._locked())
                this._remove(panel);
        });
    }

    _paintBar(cr, width, height) {
        const colour = rgb => cr.setSourceRGBA(rgb[0] / 255, rgb[1] / 255, rgb[2] / 255, 1);
        colour(TRACK_COLOUR);
        cr.rectangle(0, 0, width, height);
        cr.fill();
        if (this._progress < 0)
            return;
        colour(this._goesBack ? HINT_COLOUR : BAR_COLOUR);
        cr.rectangle(0, 0, Math.round(width * this._progress), height);
        cr.fill();
    }

    /** The trail fills its box, whatever part of the device it was drawn on. */
    _paintTrail(cr, width, height) {
        const trail = this._trail;
        this._drawnPoints = trail.length < 4 ? 0 : trail.length / 2;
        if (trail.length < 4)
            return;
        const xs = trail.filter((value, index) => index % 2 === 0);
        const ys = trail.filter((value, index) => index % 2 === 1);
        const [minX, minY] = [Math.min(...xs), Math.min(...ys)];
        const [spanX, spanY] = [Math.max(...xs) - minX, Math.max(...ys) - minY];
        const scale = (width - 8) / Math.max(spanX, spanY, 1e-3);
        const originX = 4 + (width - 8 - spanX * scale) / 2;
        const originY = 4 + (height - 8 - spanY * scale) / 2;
        cr.setSourceRGBA(TRAIL_COLOUR[0] / 255, TRAIL_COLOUR[1] / 255, TRAIL_COLOUR[2] / 255, 1);
        cr.setLineWidth(2.5);
        xs.forEach((x, index) => {
            const [px, py] = [originX + (x - minX) * scale, originY + (ys[index] - minY) * scale];
            if (index === 0)
                cr.moveTo(px, py);
            else
                cr.lineTo(px, py);
        });
        cr.stroke();
    }

    _remove(panel) {
        if (this._panel === panel) {
            this._panel = null;
            this._fading = false;
            Main.sessionMode.disconnect(this._sessionSignal);
            this._sessionSignal = 0;
        }
        panel.destroy();
    }
}

class TouchgestInput {
    constructor(path) {
        this._path = path;
        this._trustedSenders = new Set();
        this._waiting = [];
        /** The callers following the modifiers: unique name -> its name watch. */
        this._watchers = new Map();
        this._sentModifiers = 0;
        this._gestures = new ShellGestures();
        this._feedback = new FeedbackPanel(() => this._locked());
        this._gestures.onTurn = goesBack => this._feedback?.hint(goesBack);
        this._object = Gio.DBusExportedObject.wrapJSObject(InputInterface, this);
        this._object.export(Gio.DBus.session, '/org/touchgest/Input');
    }

    destroy() {
        for (const sender of [...this._watchers.keys()])
            this._unwatchModifiers(sender);
        this._gestures.release();
        this._feedback.destroy();
        this._feedback = null;
        this._gestures = null;
        this._object.unexport();
        this._object = null;
        this._keyboard = null;
        this._pointer = null;
    }

    KeysAsync([strokes], invocation) {
        this._serve(invocation, () => this._keys(strokes));
    }

    ButtonAsync([button], invocation) {
        this._serve(invocation, () => this._button(button));
    }

    DoAsync([action], invocation) {
        this._serve(invocation, () => this._do(action));
    }

    WatchModifiersAsync(parameters, invocation) {
        const sender = invocation.get_sender();
        this._serve(invocation, () => this._watchModifiers(sender), true);
    }

    UnwatchModifiersAsync(parameters, invocation) {
        const sender = invocation.get_sender();
        this._serve(invocation, () => this._unwatchModifiers(sender), true);
    }

    YieldGesturesAsync([fingers], invocation) {
        const sender = invocation.get_sender();
        // Even while locked: it presses nothing, and it must hold once the screen is unlocked.
        this._serve(invocation, () => this._gestures.yield(sender, fingers), true);
    }

    ShowFeedbackAsync([headline, decision, progress, verdict, trail], invocation) {
        const sender = invocation.get_sender();
        this._serve(invocation, () => this._feedback.show(sender, headline, decision, progress, verdict, trail));
    }

    HideFeedbackAsync([milliseconds], invocation) {
        // Even while locked: it shows nothing.
        this._serve(invocation, () => this._feedback.hide(milliseconds), true);
    }

    FollowAsync([animation, phase, progress, time], invocation) {
        const sender = invocation.get_sender();
        this._serve(invocation, () => this._gestures.follow(sender, animation, phase, progress, time));
    }

    /**
     * Acts for `invocation` once its sender is found to be touchgest, in the order the
     * calls came: one at a time, each after the bus told who its sender is. (Callbacks,
     * not promises: the answer must not wait for a promise job queue.) `act` returns the
     * answer's value, if any; it is refused while the screen is locked unless `evenLocked`.
     */
    _serve(invocation, act, evenLocked = false) {
        if (this._waiting.length >= MAXIMUM_WAITING_CALLS) {
            invocation.return_dbus_error('org.touchgest.Input.Refused', `more than ${MAXIMUM_WAITING_CALLS} calls wait`);
            return;
        }
        this._waiting.push([invocation, act, evenLocked]);
        if (this._waiting.length === 1)
            this._next();
    }

    _next() {
        if (this._waiting.length === 0)
            return;
        const [invocation, act, evenLocked] = this._waiting[0];
        this._check(invocation.get_sender(), why => {
            try {
                if (why)
                    throw new Error(why);
                if (!evenLocked && this._locked())
                    throw new Error('the screen is locked');
                invocation.return_value(act() ?? null);
            } catch (error) {
                invocation.return_dbus_error('org.touchgest.Input.Refused', error.message);
            }
            this._waiting.shift();
            this._next();
        });
    }

    _locked() {
        return Main.sessionMode.isLocked || Boolean(Main.screenShield?.locked);
    }

    /** The modifier keys held now, as a mask of MODIFIER_BITS; 0 while the screen is locked. */
    _modifiers() {
        if (this._locked())
            return 0;
        const [, , mask] = global.get_pointer();
        return mask & MODIFIER_BITS;
    }

    _watchModifiers(sender) {
        if (!this._watchers.has(sender)) {
            if (this._watchers.size >= MAXIMUM_WATCHERS)
                throw new Error(`${MAXIMUM_WATCHERS} programs follow the modifiers already`);
            // Forgotten when its name leaves the bus (at once if it has left already).
            const watch = Gio.bus_watch_name_on_connection(Gio.DBus.session, sender, Gio.BusNameWatcherFlags.NONE,
                null, () => this._unwatchModifiers(sender));
            this._watchers.set(sender, watch);
            if (this._watchers.size === 1)
                this._followModifiers(true);
        }
        return new GLib.Variant('(u)', [this._sentModifiers]);
    }

    _unwatchModifiers(sender) {
        const watch = this._watchers.get(sender);
        if (watch === undefined)
            return;
        this._watchers.delete(sender);
        Gio.bus_unwatch_name(watch);
        if (this._watchers.size === 0)
            this._followModifiers(false);
    }

    /** Follows the modifiers while anyone watches them, and nothing of the keyboard otherwise. */
    _followModifiers(on) {
        if (on) {
            this._keymap = Clutter.get_default_backend().get_default_seat().get_keymap();
            this._keymapSignal = this._keymap.connect('state-changed', () => this._modifiersChanged());
            this._sessionSignal = Main.sessionMode.connect('updated', () => this._modifiersChanged());
            if (!KEYMAP_SIGNALS_MODIFIERS) {
                this._poll = GLib.timeout_add(GLib.PRIORITY_DEFAULT, MODIFIERS_POLL_MS, () => {
                    this._modifiersChanged();
                    return GLib.SOURCE_CONTINUE;
                });
            }
            this._sentModifiers = this._modifiers();
        } else {
            this._keymap.disconnect(this._keymapSignal);
            Main.sessionMode.disconnect(this._sessionSignal);
            if (this._poll)
                GLib.source_remove(this._poll);
            this._keymap = null;
            this._poll = 0;
        }
    }

    /** Tells each watcher, and no one else, the modifiers held if they changed. */
    _modifiersChanged() {
        const mask = this._modifiers();
        if (mask === this._sentModifiers)
            return;
        this._sentModifiers = mask;
        for (const sender of this._watchers.keys()) {
            try {
                Gio.DBus.session.emit_signal(sender, '/org/touchgest/Input', 'org.touchgest.Input', 'ModifiersChanged',
                    new GLib.Variant('(u)', [mask]));
            } catch (error) {
                // Its name is gone: the name watch drops it.
            }
        }
    }

    _trustedPrograms() {
        try {
            const [, bytes] = GLib.file_get_contents(`${this._path}/trusted-programs`);
            return new TextDecoder().decode(bytes).split('\n').map(line => line.trim()).filter(line => line.startsWith('/'));
        } catch (error) {
            return ['/usr/bin/touchgest', '/usr/local/bin/touchgest'];
        }
    }

    /** Calls `done` with nothing when `sender` runs a trusted program, else with why not. */
    _check(sender, done) {
        if (this._trustedSenders.has(sender)) {
            done(null);
            return;
        }
        Gio.DBus.session.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus',
            'GetConnectionUnixProcessID', new GLib.Variant('(s)', [sender]), new GLib.VariantType('(u)'),
            Gio.DBusCallFlags.NONE, 1000, null, (connection, result) => {
                let program;
                try {
                    const [pid] = connection.call_finish(result).deepUnpack();
                    program = GLib.file_read_link(`/proc/${pid}/exe`);
                } catch (error) {
                    done(`cannot tell which program ${sender} runs`);
                    return;
                }
                if (!this._trustedPrograms().includes(program)) {
                    done(`${program} is not touchgest`);
                    return;
                }
                if (this._trustedSenders.size >= MAXIMUM_TRUSTED_SENDERS)
                    this._trustedSenders.clear();
                this._trustedSenders.add(sender);
                done(null);
            });
    }

    _keys(strokes) {
        const tokens = strokes.split(' ').filter(token => token.length > 0);
        if (tokens.length > MAXIMUM_STROKES)
            throw new Error(`more than ${MAXIMUM_STROKES} strokes in one call`);
        const parsed = tokens.map(token => {
            const match = /^([0-9a-f]{1,8}):([01])$/.exec(token);
            if (!match)
                throw new Error(`'${token.slice(0, 32)}' is not KEYSYM:1 or KEYSYM:0`);
            return [parseInt(match[1], 16), match[2] === '1'];
        });
        if (!this._keyboard)
            this._keyboard = Clutter.get_default_backend().get_default_seat().create_virtual_device(Clutter.InputDeviceType.KEYBOARD_DEVICE);
        for (const [keysym, pressed] of parsed)
            this._keyboard.notify_keyval(GLib.get_monotonic_time(), keysym, pressed ? Clutter.KeyState.PRESSED : Clutter.KeyState.RELEASED);
    }

    _button(button) {
        if (![1, 2, 3, 8, 9].includes(button))
            throw new Error(`no button ${button}`);
        if (!this._pointer)
            this._pointer = Clutter.get_default_backend().get_default_seat().create_virtual_device(Clutter.InputDeviceType.POINTER_DEVICE);
        this._pointer.notify_button(GLib.get_monotonic_time(), button, Clutter.ButtonState.PRESSED);
        this._pointer.notify_button(GLib.get_monotonic_time(), button, Clutter.ButtonState.RELEASED);
    }

    /** The shell's own actions, as its keybindings and overview do them. */
    _do(action) {
        const time = global.get_current_time();
        const neighbour = direction => Main.wm.actionMoveWorkspace(global.workspace_manager.get_active_workspace().get_neighbor(direction));
        const window = () => {
            const focused = global.display.focus_window;
            if (!focused)
                throw new Error('no window has the focus');
            return focused;
        };
        switch (action) {
        case 'workspace-next':
        case 'workspace-right':
            neighbour(Meta.MotionDirection.RIGHT);
            break;
        case 'workspace-previous':
        case 'workspace-left':
            neighbour(Meta.MotionDirection.LEFT);
            break;
        case 'overview':
            Main.overview.toggle();
            break;
        case 'app-grid':
            Main.overview.showApps();
            break;
        case 'close-window':
            window().delete(time);
            break;
        case 'maximize': {
            const focused = window();
            if (focused.get_maximized() === Meta.MaximizeFlags.BOTH)
                focused.unmaximize(Meta.MaximizeFlags.BOTH);
            else
                focused.maximize(Meta.MaximizeFlags.BOTH);
            break;
        }
        case 'minimize':
            window().minimize();
            break;
        case 'fullscreen': {
            const focused = window();
            if (focused.is_fullscreen())
                focused.unmake_fullscreen();
            else
                focused.make_fullscreen();
            break;
        }
        default:
            throw new Error(`GNOME Shell has no ${action.slice(0, 64)}`);
        }
    }
}

class TouchgestFocus {
    enable() {
        this._input = new TouchgestInput(ExtensionUtils.getCurrentExtension().path);
        this._window = null;
        this._titleSignal = 0;
        this._object = Gio.DBusExportedObject.wrapJSObject(FocusInterface, this);
        this._object.export(Gio.DBus.session, '/org/touchgest/Focus');
        // Meta.Display's focus-window: the window with the keyboard focus, or null.
        this._focusSignal = global.display.connect('notify::focus-window', () => this._focused());
        this._focused();
    }

    disable() {
        this._input.destroy();
        this._input = null;
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
