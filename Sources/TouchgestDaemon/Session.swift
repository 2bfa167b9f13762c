import CommandRunner
import ContactInput
import FocusProviders
import Glibc
import GestureStreams
import InputDevices
import LibinputInput
import PollLoop
import Rulebook
import TouchGestures

/// What a session reports as it goes.
public protocol SessionObserver: AnyObject {
    func adapter(_ event: AdapterEvent)
    func transition(_ record: TransitionRecord)
    func command(_ request: CommandRequest)
    /// The focus provider connected, lost its desktop, or the focus changed.
    func focus(_ report: FocusReport)
    /// Why rules with a window key cannot fire (once), or why one sits a gesture out.
    func focusNote(_ text: String, rule: String?)
    /// The session began or stopped reading a touchpad's fingers, or cannot read them.
    func contacts(_ event: ContactEvent)
    /// Whether it wants every move of the recognizers' private phase machines
    /// (`debug -v`); describing them costs, so only then are they made.
    var wantsPhaseMoves: Bool { get }
    /// One move of a recognizer's phase machine: `old -> input -> new`.
    func phaseMove(_ move: PhaseMove)
}

extension SessionObserver {
    public func focus(_ report: FocusReport) {}
    public func focusNote(_ text: String, rule: String?) {}
    public func contacts(_ event: ContactEvent) {}
    public var wantsPhaseMoves: Bool { false }
    public func phaseMove(_ move: PhaseMove) {}
}

/// What a session says of the touchpads' finger readers.
public enum ContactEvent: Sendable {
    /// A rule reads touchpad fingers, so the touchpad's node is read with libevdev too.
    case reading(node: String)
    /// No rule reads fingers any more: the node's libevdev reader is closed.
    case stopped(node: String)
    /// The fingers cannot be read: why.
    case problem(ContactError)
}

/// The engine, the adapter, the contact reader, the rules and the runner in one poll loop:
/// what `touchgest run` and `debug` run, and what the benchmarks and tests drive.
///
/// A touchpad's fingers are read (with libevdev, beside libinput) only while a rule in
/// force reads them (`source`, touchgest-rules(5)): otherwise each of its events would
/// be read and parsed twice. A reload that adds or removes the last such rule opens or
/// closes the readers.
public final class Session: CommandSink {
    public let loop = EventLoop()
    public let scheduler = PollScheduler()
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
    /// The focused window, for rules with window keys; kept across reloads.
    public let focus = FocusContext()
    public private(set) var focusProvider: FocusProvider?
    private weak var observer: SessionObserver?

    public init(backend: LibinputContext.Backend, options: LibinputContext.Options = .init(), runCommands: Bool,
                observer: SessionObserver?) throws(InputError) {
        environment = GestureEnvironment(scheduler: scheduler)
        input = try LibinputContext(backend, options: options)
        runner = runCommands ? CommandRunner() : nil
        streams = runCommands ? StreamHub() : nil
        self.observer = observer
        environment.transitionObserver = { [weak self] record in self?.observer?.transition(record) }
        if observer?.wantsPhaseMoves == true {
            environment.phaseObserver = { [weak self] move in self?.observer?.phaseMove(move) }
        }
        input.handler = { [weak self] event in self?.handle(event) }
        contacts.handler = { [weak self] frame in self?.handle(.input(.touches(frame))) }
        loop.add(input)
        loop.add(contacts)
        loop.add(scheduler)
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
        self.compiled = compiled
        if readsContacts != compiled.readsTouchpadContacts {
            readsContacts = compiled.readsTouchpadContacts
            for device in input.devices where device.kind == .touchpad {
                if readsContacts { readFingers(of: device) } else { stopReadingFingers(of: device) }
            }
        }
    }

    /// Delivers an adapter event: devices come and go, input goes to the engine. The
    /// one way in for input, whichever source it comes from.
    public func handle(_ event: AdapterEvent) {
        switch event {
        case let .deviceAdded(device) where device.kind == .touchpad && readsContacts:
            // Before the device is announced: once it is, it is read in full.
            readFingers(of: device)
        case let .deviceRemoved(device) where contacts.isReading(device.id):
            contacts.close(device.id, at: PollScheduler.now())
        case .deviceAdded, .deviceRemoved, .input:
            break
        }
        observer?.adapter(event)
        guard case let .input(input) = event else { return }
        environment.handle(input)
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
            observer?.contacts(.reading(node: device.node))
        } catch {
            contactProblems.append(error)
            observer?.contacts(.problem(error))
        }
    }

    private func stopReadingFingers(of device: InputDevice) {
        guard contacts.isReading(device.id) else { return }
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
            provider.start()
        }
    }

    private func focusReported(_ report: FocusReport) {
        switch report {
        case .connected: break
        case .focused(.noWindow): focus.current = .noWindow
        case let .focused(.window(appID, title)): focus.current = .window(FocusedWindow(application: appID, title: title))
        case let .lost(why): focus.current = .unknown(why)
        }
        observer?.focus(report)
    }

    public func run(_ request: CommandRequest) {
        observer?.command(request)
        runner?.run(CommandRunner.Job(request))
    }

    public func wantsSamples(of rule: String) -> Bool {
        streams?.wants(rule) ?? false
    }

    public func stream(_ sample: GestureSample) {
        streams?.publish(rule: sample.rule, line: sample.jsonLine, coalescible: sample.phase.isCoalescible)
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
