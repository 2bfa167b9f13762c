import ArgumentParser
import CommandRunner
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
    func command(_ request: CommandRequest, running: Bool)
}

/// The engine, the adapter, the rules and the runner in one poll loop.
final class Session: CommandSink {
    let loop = EventLoop()
    let scheduler = PollScheduler()
    let environment: GestureEnvironment
    let input: LibinputContext
    let runner: CommandRunner?
    /// The rules' stream commands and the events socket's subscribers (with `runCommands`).
    let streams: StreamHub?
    private(set) var compiled: CompiledRulebook?
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
        loop.add(input)
        loop.add(scheduler)
        if let runner { loop.add(runner) }
        if let streams { loop.add(streams) }
    }

    /// Opens a session for a subcommand, or prints why not and exits 1; warns about
    /// devices that could not be opened.
    static func open(_ input: InputOptions, runCommands: Bool, observer: SessionObserver) throws -> Session {
        let session: Session
        do {
            session = try Session(backend: input.backend, options: input.adapterOptions, runCommands: runCommands,
                                  observer: observer)
        } catch {
            printError("touchgest: error: \(error)")
            throw ExitCode(1)
        }
        for problem in session.input.problems { printError("touchgest: warning: \(problem)") }
        return session
    }

    /// Replaces the rules; a gesture under way on the old rules is cancelled (its streams
    /// get the `cancelled` line), then the old streams close and the new ones start.
    func load(_ book: Rulebook) {
        compiled?.detach()
        streams?.setStreams(book.rules.compactMap { rule in rule.stream.map { (rule: rule.name, command: $0) } })
        let compiled = CompiledRulebook(book, sink: self) { [weak self] id in self?.input.device(id)?.name }
        compiled.attach(to: environment)
        self.compiled = compiled
    }

    func handle(_ event: AdapterEvent) {
        observer?.adapter(event)
        if case let .input(input) = event { environment.handle(input) }
    }

    func run(_ request: CommandRequest) {
        observer?.command(request, running: runner != nil)
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
