import ArgumentParser
import CommandRunner
import ContactInput
import FocusProviders
import Glibc
import GestureStreams
import LibinputInput
import PollLoop
import Rulebook
import TouchGestures

/// What a session reports as it goes.
protocol SessionObserver: AnyObject {
    func adapter(_ event: AdapterEvent)
    func transition(_ record: TransitionRecord)
    func command(_ request: CommandRequest)
    /// The focus provider connected, lost its desktop, or the focus changed.
    func focus(_ report: FocusReport)
    /// Why rules with a window key cannot fire (once), or why one sits a gesture out.
    func focusNote(_ text: String, rule: String?)
}

extension SessionObserver {
    func focus(_ report: FocusReport) {}
    func focusNote(_ text: String, rule: String?) {}
}

/// The engine, the adapter, the contact reader, the rules and the runner in one poll loop.
///
/// Every touchpad libinput opens is also read by the contact reader; its frames reach the
/// engine only while a rule reads touchpad fingers (`source`, touchgest-rules(5)).
final class Session: CommandSink {
    let loop = EventLoop()
    let scheduler = PollScheduler()
    let environment: GestureEnvironment
    let input: LibinputContext
    let runner: CommandRunner?
    let contacts = ContactReader()
    /// Why the fingers of a touchpad cannot be read, as found when it was added.
    private(set) var contactProblems: [ContactError] = []
    /// The rules' stream commands and the events socket's subscribers (with `runCommands`).
    let streams: StreamHub?
    private(set) var compiled: CompiledRulebook?
    /// Whether the rules in force read touchpad fingers.
    private var readsContacts = false
    /// The focused window, for rules with window keys; kept across reloads.
    let focus = FocusContext()
    private(set) var focusProvider: FocusProvider?
    private weak var observer: SessionObserver?

    init(backend: LibinputContext.Backend, options: LibinputContext.Options = .init(), runCommands: Bool,
         observer: SessionObserver?) throws(InputError) {
        environment = GestureEnvironment(scheduler: scheduler)
        input = try LibinputContext(backend, options: options)
        runner = runCommands ? CommandRunner() : nil
        streams = runCommands ? StreamHub() : nil
        self.observer = observer
        environment.transitionObserver = { [weak self] record in self?.observer?.transition(record) }
        input.handler = { [weak self] event in self?.handle(event) }
        contacts.handler = { [weak self] frame in
            guard let self, readsContacts else { return }
            handle(.input(.touches(frame)))
        }
        loop.add(input)
        loop.add(contacts)
        loop.add(scheduler)
        if let runner { loop.add(runner) }
        if let streams { loop.add(streams) }
    }

    /// Opens a session for a subcommand, or prints why not and exits 1; warns about
    /// devices that could not be opened.
    static func open(_ input: InputOptions, book: Rulebook? = nil, runCommands: Bool, observer: SessionObserver) throws -> Session {
        let session: Session
        do {
            session = try Session(backend: input.backend, options: input.adapterOptions(with: book), runCommands: runCommands,
                                  observer: observer)
        } catch {
            printError("touchgest: error: \(error)")
            throw ExitCode(1)
        }
        for problem in session.input.problems { printError("touchgest: warning: \(problem)") }
        session.contactWarning = { printError("touchgest: warning: \($0)") }
        return session
    }

    /// Replaces the rules; a gesture under way on the old rules is cancelled (its streams
    /// get the `cancelled` line), then the old streams close and the new ones start.
    func load(_ book: Rulebook) {
        compiled?.detach()
        streams?.setStreams(book.rules.compactMap { rule in rule.stream.map { (rule: rule.name, command: $0) } })
        let compiled = CompiledRulebook(book, sink: self, focus: focus) { [weak self] id in self?.input.device(id)?.name }
        compiled.attach(to: environment)
        self.compiled = compiled
        readsContacts = compiled.readsTouchpadContacts
    }

    /// Told why a touchpad's fingers cannot be read, when it is added.
    var contactWarning: ((ContactError) -> Void)?

    func handle(_ event: AdapterEvent) {
        switch event {
        case let .deviceAdded(device) where device.kind == .touchpad:
            // Before the device is announced: once it is, it is read in full.
            do {
                try contacts.open(node: device.node, device: device.id, size: device.size)
            } catch {
                contactProblems.append(error)
                contactWarning?(error)
            }
        case let .deviceRemoved(device):
            contacts.close(device.id, at: PollScheduler.now())
        case .deviceAdded, .input:
            break
        }
        observer?.adapter(event)
        guard case let .input(input) = event else { return }
        if let compiled { compiled.handle(input, in: environment) } else { environment.handle(input) }
    }

    /// Starts the focus provider `name` names (`auto`: from the environment; `none`),
    /// as one more source of the loop. Without one, rules with window keys do not fire.
    func startFocus(_ name: String) {
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

    func run(_ request: CommandRequest) {
        observer?.command(request)
        runner?.run(CommandRunner.Job(
            key: request.rule, command: request.command, environment: request.environment,
            timeout: request.timeout, overlap: Self.overlap(request.overlap)))
    }

    func wantsSamples(of rule: String) -> Bool {
        streams?.wants(rule) ?? false
    }

    func stream(_ sample: GestureSample) {
        streams?.publish(rule: sample.rule, line: sample.jsonLine, coalescible: sample.phase.isCoalescible)
    }

    static func overlap(_ policy: OverlapPolicy) -> CommandRunner.Overlap {
        switch policy {
        case .skip: .skip
        case .queue: .queue
        case .parallel: .parallel
        }
    }

    /// Runs until SIGINT or SIGTERM (nil), or until the loop fails (why).
    @discardableResult
    func runUntilSignalled() -> EventLoopFailure? {
        let signals = SignalSource([SIGINT, SIGTERM]) { [weak self] _ in self?.loop.stop() }
        loop.add(signals)
        input.dispatch()
        return loop.run()
    }
}
