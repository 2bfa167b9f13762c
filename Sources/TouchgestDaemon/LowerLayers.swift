import FocusProviders
import GestureStreams
import InputActions
import InputChannels
import InputDevices
import LibinputInput
import Overlay
import PollLoop
import Recordings
import SessionState

// What the executable names of the layers below the daemon, so that it imports the daemon
// (and the rules and the engine, whose words it prints) and never an input, process or
// desktop layer itself: each name here is one the command line parses, runs or prints.

/// The libinput adapter a pipeline reads: a seat or device nodes (``LibinputContext/Backend``).
public typealias LibinputContext = LibinputInput::LibinputContext
/// Who may read a device node, for `list-devices`.
public typealias DeviceAccess = LibinputInput::DeviceAccess
/// A touchpad or touchscreen the adapter opened.
public typealias InputDevice = InputDevices::InputDevice
/// A device added or removed, or input, as the adapter reports it.
public typealias AdapterEvent = InputDevices::AdapterEvent
/// A keyboard read for its modifier keys, or the modifiers held on the keyboards.
public typealias KeyboardEvent = InputDevices::KeyboardEvent
/// The log's writer, a source of the loop that never blocks it.
public typealias LogOutput = PollLoop::LogOutput
/// A focus provider's report, with its line (``FocusReport/description``).
public typealias FocusReport = FocusProviders::FocusReport
/// An input channel's report, with its line (``InputChannelReport/description``).
public typealias InputChannelReport = InputChannels::InputChannelReport
/// Keys, text, a click or a shortcut a rule presses.
public typealias InputAction = InputActions::InputAction
/// The session-state source's report, with its line (``SessionReport/line``).
public typealias SessionReport = SessionState::SessionReport
/// Whether the session lets rules act, and why not.
public typealias SessionState = SessionState::SessionState
/// `touchgest record`'s writer and `replay`'s reader of the recording format.
public typealias RecordingWriter = Recordings::RecordingWriter
public typealias RecordingReader = Recordings::RecordingReader
/// `touchgest events`: the subscriber's side of the events socket.
public typealias SubscriberClient = GestureStreams::SubscriberClient

extension Daemon {
    /// The focus providers `--focus` may name, besides `auto` and `none`.
    public static var focusProviderNames: [String] { FocusProviders.names }

    /// Where the daemon serves gesture events by default, under `runtimeDirectory`
    /// (`$XDG_RUNTIME_DIR`): `…/touchgest/events.sock`.
    public static func defaultEventsSocket(runtimeDirectory: String) -> String? {
        StreamHub.defaultSocketPath(environment: ["XDG_RUNTIME_DIR": runtimeDirectory])
    }
}
/// What the feedback overlay says: shown, faded, or why it cannot be shown.
public typealias OverlayReport = Overlay::GestureOverlay.Report
