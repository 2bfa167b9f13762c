import CommandRunner
import ContactInput
import FocusProviders
import Glibc
import GestureStreams
import InputActions
import InputChannels
import InputDevices
import LibinputInput
import Overlay
import PollLoop
import Rulebook
import SessionState
import TouchGestures

/// What a gesture pipeline reports as it goes: the log of `touchgest run`, the lines of
/// `debug` and `replay`, a recording, the benchmarks. Each report type says its own line
/// (its `description`), so the log and `debug` word it once.
public protocol GesturePipelineObserver: AnyObject {
    func adapter(_ event: AdapterEvent)
    /// Whether it wants every transition of every recognizer; a continuous gesture makes
    /// one per update, so they are made only for an observer that shows them.
    var wantsTransitions: Bool { get }
    func transition(_ record: TransitionRecord)
    func command(_ request: CommandRequest)
    /// A rule pressed keys, typed text or clicked (shown whether or not it reaches the desktop).
    func press(_ request: InputRequest)
    /// A rule moved the desktop's own animation (`follow`): the progress handed to the
    /// desktop (shown whether or not it reaches the desktop).
    func follow(_ request: FollowRequest)
    /// The input channel connected, went away, or could not press something.
    func inputChannel(_ report: InputChannelReport)
    /// The focus provider connected, lost its desktop, or the focus changed.
    func focus(_ report: FocusReport)
    /// A keyboard read for its modifier keys came or went, or the modifiers held on the
    /// keyboards changed (`modifier-source = "keyboards"`); never any other key.
    func keyboard(_ event: KeyboardEvent)
    /// Why rules with a window key cannot fire (once), or why one sits a gesture out.
    func focusNote(_ text: String, rule: String?)
    /// The pipeline began or stopped reading a touchpad's fingers, or cannot read them.
    func contacts(_ event: ContactEvent)
    /// Whether it wants every move of the recognizers' private phase machines
    /// (`debug -v`); describing them costs, so only then are they made.
    var wantsPhaseMoves: Bool { get }
    /// One move of a recognizer's phase machine: `old -> input -> new`.
    func phaseMove(_ move: PhaseMove)
    /// The session-state source followed logind or the screensaver, lacks one, or the
    /// session was locked, left the front, went to sleep or came back.
    func session(_ report: SessionReport)
    /// A gesture began, with `input`, while the session (logind, the screensaver) keeps rules out (`state`): only
    /// rules with `when-locked` take part, or none.
    func gestureWhileRestricted(_ state: SessionState, input: InputEvent)
    /// Hyprland's own workspace swipe was read, yielded or given back, or could not be
    /// (`desktop-gestures = "yield"`).
    func desktopGestures(_ report: HyprlandSwipeReport)
    /// The feedback overlay was shown, faded, or cannot be shown (`feedback = "on"`).
    func overlay(_ report: GestureOverlay.Report)
}

extension GesturePipelineObserver {
    public func press(_ request: InputRequest) {}
    public func follow(_ request: FollowRequest) {}
    public func inputChannel(_ report: InputChannelReport) {}
    public func focus(_ report: FocusReport) {}
    public func keyboard(_ event: KeyboardEvent) {}
    public func focusNote(_ text: String, rule: String?) {}
    public func contacts(_ event: ContactEvent) {}
    public var wantsTransitions: Bool { true }
    public var wantsPhaseMoves: Bool { false }
    public func phaseMove(_ move: PhaseMove) {}
    public func session(_ report: SessionReport) {}
    public func gestureWhileRestricted(_ state: SessionState, input: InputEvent) {}
    public func desktopGestures(_ report: HyprlandSwipeReport) {}
    public func overlay(_ report: GestureOverlay.Report) {}
}

/// What a pipeline says of the touchpads' finger readers.
public enum ContactEvent: Sendable {
    /// A rule reads touchpad fingers, so the touchpad's node is read with libevdev too.
    case reading(node: String)
    /// A tap rule with the default source reads this semi-MT pad's taps from its fingers:
    /// libinput takes them for scrolling.
    case readingTaps(node: String)
    /// No rule reads fingers any more: the node's libevdev reader is closed.
    case stopped(node: String)
    /// The fingers cannot be read: why.
    case problem(ContactError)
}

extension ContactEvent: CustomStringConvertible {
    /// The one line the log of `touchgest run` and `touchgest debug -v` give the event.
    public var description: String {
        switch self {
        case let .reading(node): "reading the fingers of \(node): a rule reads touchpad fingers"
        case let .readingTaps(node):
            "reading the fingers of \(node): a tap rule reads this semi-MT pad's taps from them, as libinput takes them for scrolling"
        case let .stopped(node): "stopped reading the fingers of \(node): no rule reads them now"
        case let .problem(error): "\(error)"
        }
    }
}

/// The one line the log and `debug` give a focus note: a rule sitting out a gesture begun
/// in a window it does not want (`NAME sits out: WHY`), or a problem with the focus.
public func focusNoteLine(_ text: String, rule: String?) -> String {
    rule.map { "\($0) sits out: \(text)" } ?? "focus: \(text)"
}

/// The path from input to actions in one poll loop: libinput and the contact reader feed
/// the engine, the rules decide, and commands, key presses and stream lines go out, with
/// the focused window and the session's state (logind) deciding which rules may act.
/// What `touchgest run`, `debug`, `record` and `learn` run, and what the benchmarks and
/// tests drive. (Not the login session: that is `SessionState`'s `SessionMonitor`.)
///
/// A touchpad's fingers are read (with libevdev, beside libinput) only while a rule in
/// force reads them (`source`, touchgest-rules(5)): otherwise each of its events would
/// be read and parsed twice. A reload that adds or removes the last such rule opens or
/// closes the readers. A semi-MT pad's fingers are read, too, while a tap rule takes
/// libinput's gestures where it can (`source = "auto"`): libinput takes such a pad's
/// two-finger taps for scrolling, so its taps come from its fingers
/// (``GestureEnvironment/fingerReadTouchpads``).
public final class GesturePipeline: CommandSink {
    public let loop = EventLoop()
    /// The engine's timers: the loop's own clock, or (tests) a manual one.
    public let scheduler: any Scheduler
    public let environment: GestureEnvironment
    public let input: LibinputContext
    public let runner: CommandRunner?
    public let contacts = ContactReader()
    /// Why the fingers of a touchpad cannot be read, as found when they were first needed.
    public private(set) var contactProblems: [ContactError] = []
    /// The rules' stream commands and the events socket's subscribers (with `runCommands`).
    public let streams: StreamHub?
    public private(set) var compiled: CompiledRulebook?
    /// Whether the rules in force read touchpad fingers.
    public private(set) var readsContacts = false
    /// Whether the rules in force read the taps of semi-MT touchpads from their fingers.
    public private(set) var readsSemiMultitouchFingers = false
    /// The focused window, for rules with window keys; kept across reloads.
    public let focus = FocusContext()
    public private(set) var focusProvider: FocusProvider?
    /// Whether the rules in force want modifier keys: only then does the focus provider
    /// follow them.
    public private(set) var wantsModifiers = false
    /// Whether the modifier keys come from the keyboards (`modifier-source = "keyboards"`,
    /// ``LibinputContext/Options/readsModifierKeys``) instead of the desktop: chosen once,
    /// when the pipeline is made, as the seat opens its keyboards then or never.
    public let modifiersFromKeyboards: Bool
    /// The modifier keys the desktop (or, with ``modifiersFromKeyboards``, the keyboards)
    /// says are held, stamped on every event before the
    /// engine sees it; nil while nothing tells them (then events keep what they carry:
    /// a replay's, from its recording).
    @exclusivity(unchecked) public private(set) var heldModifiers: KeyModifierFlags?
    /// Where the rules' keys, text and clicks go (with `runCommands`), started when the
    /// first rules that press something are loaded; nil before, or when this desktop has
    /// none (``inputChannelProblem`` says why).
    public private(set) var inputChannel: InputChannel?
    public private(set) var inputChannelProblem: String?
    /// Where desktop actions go when the desktop takes them on a route of their own (its
    /// IPC socket), beside the input channel; nil where the input channel takes them too.
    public private(set) var actionChannel: InputChannel?
    /// Hyprland's own workspace swipe, turned off while the rules bind its fingers
    /// (`desktop-gestures = "yield"`, with `runCommands`); made when rules first yield on
    /// Hyprland, nil elsewhere.
    public private(set) var hyprlandSwipe: HyprlandSwipeYield?
    /// Whether the screen is locked, the session in front, the machine going to sleep;
    /// nil until ``startSessionState(_:)`` (and with `none`).
    @exclusivity(unchecked) public private(set) var sessionMonitor: SessionMonitor?
    /// Which rules may act, from the session's state; kept across reloads.
    public private(set) var admission = RuleAdmission.every
    /// The input being handled began a gesture while rules are kept out.
    // Read at every event, on the loop's one thread, with no access overlapping another:
    // no dynamic exclusivity checks.
    @exclusivity(unchecked) private var restrictedGestureBegan = false
    @exclusivity(unchecked) private weak var observer: GesturePipelineObserver?
    /// What touchgest is deciding, on screen while fingers are down (``showFeedback(_:)``);
    /// nil while feedback is off. Fed after the engine decides; it draws at deadlines of
    /// its own, so no decision waits for a frame.
    @exclusivity(unchecked) public private(set) var overlay: GestureOverlay?
    /// Why feedback was asked for and cannot be shown on this desktop.
    public private(set) var overlayProblem: String?
    /// The overlay once made, kept (a source of the loop) while feedback is turned off.
    private var madeOverlay: GestureOverlay?

    public convenience init(backend: LibinputContext.Backend, options: LibinputContext.Options = .init(), runCommands: Bool,
                            observer: GesturePipelineObserver?) throws(InputError) {
        try self.init(backend: backend, options: options, scheduler: PollScheduler(), runCommands: runCommands, observer: observer)
    }

    /// The seam for tests: the engine's timers on `scheduler`. A ``PollScheduler`` is a
    /// source of the loop; any other (a ``ManualScheduler``) is advanced by its owner, and
    /// input comes through ``handle(_:)`` on the events' own timestamps.
    init(backend: LibinputContext.Backend, options: LibinputContext.Options = .init(), scheduler: any Scheduler,
         runCommands: Bool, observer: GesturePipelineObserver?) throws(InputError) {
        // Peers decide how big their messages are: what they send is given back when freed.
        mapLargeBlocks()
        self.scheduler = scheduler
        environment = GestureEnvironment(scheduler: scheduler)
        modifiersFromKeyboards = options.readsModifierKeys
        input = try LibinputContext(backend, options: options)
        runner = runCommands ? CommandRunner() : nil
        streams = runCommands ? StreamHub() : nil
        self.observer = observer
        if observer?.wantsTransitions == true {
            environment.transitionObserver = { [weak self] record in self?.observer?.transition(record) }
        }
        if observer?.wantsPhaseMoves == true {
            environment.phaseObserver = { [weak self] move in self?.observer?.phaseMove(move) }
        }
        input.handler = { [weak self] event in self?.handle(event) }
        input.keyboardHandler = { [weak self] event in self?.keyboardReported(event) }
        contacts.handler = { [weak self] frame in self?.handle(.input(.touches(frame))) }
        loop.add(input)
        loop.add(contacts)
        if let scheduler = scheduler as? PollScheduler { loop.add(scheduler) }
        if let runner { loop.add(runner) }
        if let streams { loop.add(streams) }
    }

    /// Replaces the rules; a gesture under way on the old rules is cancelled (its streams
    /// get the `cancelled` line), then the old streams close and the new ones start. The
    /// touchpads' finger readers open or close as the new rules need them.
    public func load(_ book: Rulebook) {
        compiled?.detach()
        streams?.setStreams(book.rules.compactMap { rule in rule.stream.map { (rule: rule.name, command: $0) } })
        let compiled = CompiledRulebook(book, sink: self, focus: focus) { [weak self] id in self?.input.device(id)?.name }
        compiled.attach(to: environment)
        compiled.admit(admission)
        compiled.onGestureWhileRestricted = { [weak self] _ in self?.restrictedGestureBegan = true }
        // Made only for an overlay (turned on before the rules it shows are loaded).
        if overlay != nil { compiled.strokeReports = { [weak self] report in self?.overlay?.strokeMatched(report.verdict) } }
        self.compiled = compiled
        // The desktop's own swipes that the rules take (`desktop-gestures`, `follow`):
        // given back at once for the numbers of fingers the new rules no longer bind. GNOME
        // through touchgest's extension (the input channel), Hyprland through its socket.
        let yielded = book.yieldedFingers
        if runner != nil && (book.rules.contains(where: \.pressesInput) || book.rules.contains { $0.follow != nil } || !yielded.isEmpty) {
            startInputChannel()
        }
        (inputChannel as? DesktopGestureChannel)?.yieldGestures(fingers: yielded)
        if runner != nil { yieldDesktopGestures(yielded) }
        wantsModifiers = book.rules.contains { $0.held.modifiers != nil }
        focusProvider?.followModifiers(wantsModifiers && !modifiersFromKeyboards)
        if !wantsModifiers {
            heldModifiers = nil
        } else if modifiersFromKeyboards {
            heldModifiers = input.heldModifiers
        }
        if readsContacts != compiled.readsTouchpadContacts || readsSemiMultitouchFingers != compiled.readsSemiMultitouchFingers {
            readsContacts = compiled.readsTouchpadContacts
            readsSemiMultitouchFingers = compiled.readsSemiMultitouchFingers
            for device in input.devices where device.kind == .touchpad {
                if wantsFingers(of: device) { readFingers(of: device) } else { stopReadingFingers(of: device) }
            }
        }
    }

    /// Whether the rules in force need `device`'s fingers.
    private func wantsFingers(of device: InputDevice) -> Bool {
        device.kind == .touchpad && (readsContacts || readsSemiMultitouchFingers && device.isSemiMultitouch)
    }

    /// Delivers an adapter event: devices come and go, input goes to the engine. The
    /// one way in for input, whichever source it comes from.
    public func handle(_ event: AdapterEvent) {
        var event = event
        if let heldModifiers, case var .input(input) = event {
            input.modifierFlags = heldModifiers
            event = .input(input)
        }
        switch event {
        case let .deviceAdded(device) where wantsFingers(of: device):
            // Before the device is announced: once it is, it is read in full.
            readFingers(of: device)
        case let .deviceRemoved(device) where contacts.isReading(device.id):
            environment.fingerReadTouchpads.remove(device.id)
            contacts.close(device.id, at: PollScheduler.now())
        case .deviceAdded, .deviceRemoved, .input:
            break
        }
        observer?.adapter(event)
        guard case let .input(input) = event else { return }
        restrictedGestureBegan = false
        overlay?.prepare(input)
        environment.handle(input)
        overlay?.input(input)
        if restrictedGestureBegan, let state = sessionMonitor?.state { observer?.gestureWhileRestricted(state, input: input) }
    }

    /// Reads every touchpad's fingers from now on, whatever the rules need (until rules are
    /// loaded): for `touchgest learn`, which collects strokes drawn with them before any
    /// rule reads them, and `touchgest record --fingers`.
    public func readTouchpadFingers() {
        guard !readsContacts else { return }
        readsContacts = true
        for device in input.devices where device.kind == .touchpad { readFingers(of: device) }
    }

    private func readFingers(of device: InputDevice) {
        guard !contacts.isReading(device.id) else { return }
        do {
            try contacts.open(node: device.node, device: device.id, size: device.size)
            // A semi-MT pad read for any reason gives its taps from its fingers; one that
            // cannot be read keeps libinput's.
            if device.isSemiMultitouch { environment.fingerReadTouchpads.insert(device.id) }
            observer?.contacts(readsContacts ? .reading(node: device.node) : .readingTaps(node: device.node))
        } catch {
            contactProblems.append(error)
            observer?.contacts(.problem(error))
        }
    }

    private func stopReadingFingers(of device: InputDevice) {
        guard contacts.isReading(device.id) else { return }
        environment.fingerReadTouchpads.remove(device.id)
        contacts.close(device.id, at: PollScheduler.now())
        observer?.contacts(.stopped(node: device.node))
    }

    /// Starts the focus provider `name` names (`auto`: from the environment; `none`),
    /// as one more source of the loop. Without one, rules with window keys do not fire.
    public func startFocus(_ name: String) {
        focus.onUnavailable = { [weak self] text in self?.observer?.focusNote(text, rule: nil) }
        focus.onSitOut = { [weak self] rule, why in self?.observer?.focusNote(why, rule: rule) }
        guard name != "none" else {
            focus.current = .unknown("no focus provider (--focus none)")
            return
        }
        switch FocusProviders.choose(name, environment: CommandRunner.processEnvironment()) {
        case let .failure(why):
            focus.current = .unknown(why.description)
            // Said at start only when it matters now (rules with window keys, or a
            // provider asked for by name); otherwise at the first gesture that needs it.
            if focus.hasWindowRules || name != "auto" { observer?.focus(.lost(why.description)) }
        case let .success(provider):
            focus.current = .unknown("\(provider.desktop) has not told the focus yet")
            provider.onReport = { [weak self] report in self?.focusReported(report) }
            focusProvider = provider
            loop.add(provider)
            provider.followModifiers(wantsModifiers && !modifiersFromKeyboards)
            provider.start()
        }
    }

    /// Starts following the session's state (`auto`: logind on the system bus and the
    /// screensaver on the session bus), as one more source of the loop; `none` follows
    /// nothing, and every rule acts whatever the screen shows. While the screen is locked
    /// only rules with `when-locked` act; while the session is not in front, or the
    /// machine is going to sleep, none does. A gesture under way when that changes is
    /// cancelled, and each subscriber of the events socket is told in one line.
    public func startSessionState(_ name: String, environment: [String: String] = CommandRunner.processEnvironment()) {
        guard name != "none" else { return }
        let monitor = SessionMonitor(environment: environment)
        monitor.onReport = { [weak self] report in self?.sessionReported(report) }
        sessionMonitor = monitor
        loop.add(monitor)
        monitor.start()
    }

    /// Applies one report of the session monitor; internal so that tests can give the
    /// reports a monitor on a bus would.
    func sessionReported(_ report: SessionReport) {
        switch report {
        case let .changed(state), let .changedQuietly(state):
            let admission: RuleAdmission = switch state.condition {
            case .unlocked: .every
            case .locked: .whenLocked
            case .inactive, .sleeping: .none
            }
            // First the rules: a gesture under way is cancelled (its stream gets its
            // cancelled line), then the subscribers hear why.
            self.admission = admission
            compiled?.admit(admission)
            streams?.announceSession(state.condition.rawValue)
        case .following, .missing, .unsaid:
            break
        }
        observer?.session(report)
    }

    private func focusReported(_ report: FocusReport) {
        switch report {
        case .connected: break
        case .focused(.noWindow): focus.current = .noWindow
        case let .focused(.window(appID, title)): focus.current = .window(FocusedWindow(application: appID, title: title))
        case let .lost(why):
            focus.current = .unknown(why)
            // Not known: no rule that wants a modifier held fires until the desktop says.
            if wantsModifiers && !modifiersFromKeyboards { heldModifiers = [] }
        case let .modifiers(held):
            if wantsModifiers && !modifiersFromKeyboards { heldModifiers = held }
        case .modifiersUnknown:
            if wantsModifiers && !modifiersFromKeyboards { heldModifiers = [] }
        }
        observer?.focus(report)
    }

    private func keyboardReported(_ event: KeyboardEvent) {
        if case let .modifiers(held) = event, wantsModifiers { heldModifiers = held }
        observer?.keyboard(event)
    }

    public func run(_ request: CommandRequest) {
        observer?.command(request)
        runner?.run(CommandRunner.Job(request))
    }

    public func press(_ request: InputRequest) {
        observer?.press(request)
        guard runner != nil else { return }
        // Without a channel, why was said when the rules were loaded.
        if case .desktop = request.action, let actionChannel {
            actionChannel.press(request.action)
        } else {
            inputChannel?.press(request.action)
        }
    }

    public func follow(_ request: FollowRequest) {
        observer?.follow(request)
        guard runner != nil else { return }
        (inputChannel as? DesktopGestureChannel)?.follow(request.step)
    }

    /// Chooses this desktop's input channel and its route for actions, once, as sources
    /// of the loop.
    private func startInputChannel() {
        guard inputChannel == nil && inputChannelProblem == nil else { return }
        let environment = CommandRunner.processEnvironment()
        if let channel = InputChannels.chooseActions(environment: environment) {
            actionChannel = channel
            add(channel)
        }
        switch InputChannels.choose(environment: environment) {
        case let .failure(why):
            inputChannelProblem = why.description
            observer?.inputChannel(.lost(why.description))
        case let .success(channel):
            inputChannel = channel
            add(channel)
        }
    }

    /// Asks the desktop to stop its own swipes of `fingers` (none: to give back what it
    /// yielded). Only Hyprland is asked here; GNOME's are yielded inside the shell, by
    /// touchgest's extension.
    func yieldDesktopGestures(_ fingers: Set<Int>, environment: [String: String] = CommandRunner.processEnvironment()) {
        if hyprlandSwipe == nil {
            guard !fingers.isEmpty, let path = HyprlandSwipeYield.socketPath(environment: environment) else { return }
            let yield = HyprlandSwipeYield(socketPath: path)
            yield.onReport = { [weak self] report in self?.observer?.desktopGestures(report) }
            hyprlandSwipe = yield
            loop.add(yield)
        }
        hyprlandSwipe?.bind(fingers: fingers)
    }

    /// Gives the desktop back the swipes touchgest took, waiting a bounded while for it
    /// (``InputChannelDefaults/restoreTimeout``): as touchgest stops, after the loop.
    public func giveBackDesktopGestures() {
        hyprlandSwipe?.restoreBeforeExit()
    }

    private func add(_ channel: InputChannel) {
        channel.onReport = { [weak self] report in self?.observer?.inputChannel(report) }
        loop.add(channel)
        channel.start()
    }

    public func wantsSamples(of rule: String) -> Bool {
        overlay != nil || streams?.wants(rule) ?? false
    }

    public func stream(_ sample: GestureSample) {
        overlay?.decided(rule: sample.rule, gesture: "\(sample.gesture)", moment: "\(sample.phase)", progress: sample.progress)
        guard let streams, streams.wants(sample.rule) else { return }
        streams.publish(rule: sample.rule, line: sample.jsonLine, coalescible: sample.phase.isCoalescible)
    }

    /// Shows what touchgest is deciding on screen while fingers are down (`on`), or stops
    /// (the overlay closes what it has open). The overlay is this desktop's
    /// (``GestureOverlay/choose(environment:)``), one more source of the loop, made once
    /// and kept while off (then it has nothing open and no deadline); where there is none,
    /// why is said once.
    public func showFeedback(_ on: Bool, environment: [String: String] = CommandRunner.processEnvironment()) {
        guard on else {
            overlay?.stop()
            overlay = nil
            return
        }
        guard overlay == nil, overlayProblem == nil else { return }
        if let madeOverlay { return overlay = madeOverlay }
        switch GestureOverlay.choose(environment: environment) {
        case let .failure(why):
            overlayProblem = why.description
            observer?.overlay(.problem(why.description))
        case let .success(made):
            made.onReport = { [weak self] report in self?.observer?.overlay(report) }
            overlay = made
            madeOverlay = made
            loop.add(made)
        }
    }

    /// Runs until SIGINT or SIGTERM (nil), or until the loop fails (why). With `reload`,
    /// SIGHUP calls it; the three share one signalfd (every descriptor costs each wake-up's
    /// poll a little).
    @discardableResult
    public func runUntilSignalled(reload: (() -> Void)? = nil) -> EventLoopFailure? {
        let signals = SignalSource(reload == nil ? [SIGINT, SIGTERM] : [SIGINT, SIGTERM, SIGHUP]) { [weak self] signal in
            if signal == SIGHUP { reload?() } else { self?.loop.stop() }
        }
        loop.add(signals)
        input.dispatch()
        return loop.run()
    }
}
