// swift-tools-version: 6.0
import PackageDescription

// Targets by layer, dependencies pointing inward (docs/engine.md, DESIGN.md): the engine
// and its text and wire helpers; C modules; input adapters; rules; actions and streams;
// focus; recordings; the daemon that wires them; the executable. Then fuzz targets, benchmarks and tests. Each comment
// sits above the target it describes.
let package = Package(
    name: "touchgest",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "TouchGestures", targets: ["TouchGestures"]),
        .library(name: "StrokeGestures", targets: ["StrokeGestures"]),
        .library(name: "TouchgestDaemon", targets: ["TouchgestDaemon"]),
        .executable(name: "touchgest", targets: ["touchgest"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // MARK: The engine

        // UIKit's gesture-recognizer model with no system dependency.
        .target(name: "TouchGestures", dependencies: [.product(name: "RealModule", package: "swift-numerics")]),
        // Drawn shapes matched against templates, built on the engine's public API only, as
        // any program embedding the engine could write a recognizer of its own.
        .target(name: "StrokeGestures", dependencies: ["TouchGestures", .product(name: "RealModule", package: "swift-numerics")]),

        // Text from outside and text for outside, kept out of the engine: JSON read (a value, a
        // bounded line splitter) and written (the one escaper and line writer), escaping for
        // terminals, globs, the bound and cut on outside text, `--device-size`'s GLOB=WxH, and
        // durations and byte counts as messages say them. It builds on the engine's types and
        // number formatter (the transition log prints numbers, so that formatter stays there).
        .target(name: "TextWire", dependencies: ["TouchGestures"]),

        // MARK: C modules, each seen by the few targets named beside it

        // libinput + libudev, seen only by the input adapter.
        .systemLibrary(name: "CLibinput", pkgConfig: "libinput", providers: [.apt(["libinput-dev", "libudev-dev"])]),
        // libevdev, seen only by the contact reader.
        .systemLibrary(name: "CLibevdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        // libxcb and its XTEST, XKB and SHAPE extensions, seen by the X11 focus provider, input channel and overlay.
        .systemLibrary(name: "CXCB", pkgConfig: "xcb", providers: [.apt(["libxcb1-dev", "libxcb-xtest0-dev", "libxcb-xkb-dev", "libxcb-shape0-dev"])]),
        // cairo, seen only by the overlay: it draws the feedback panel into shared memory.
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        // libxkbcommon, seen only by the input actions: key names and keysyms.
        .systemLibrary(name: "CXKBCommon", pkgConfig: "xkbcommon", providers: [.apt(["libxkbcommon-dev"])]),
        // libdbus-1, seen only by BusLoop, the one D-Bus layer (and the session benchmark's desktop stand-in).
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        // Starting a command as touchgest does (its own clone), and small syscalls Swift lacks: seen by
        // PollLoop, CommandRunner, GestureStreams (its socket client too) and InputChannels.
        .target(name: "CProcess"),

        // MARK: Input

        // One thread, one poll: sources of descriptors and deadlines, and the real scheduler.
        .target(name: "PollLoop", dependencies: ["TouchGestures", "CProcess"]),
        // What input adapters hand over (devices, their events), with no C library: recordings use them too.
        .target(name: "InputDevices", dependencies: ["TouchGestures"]),
        // The libinput + libudev adapter: devices, hotplug, libinput events -> engine input.
        .target(name: "LibinputInput", dependencies: ["CLibinput", "InputDevices", "TouchGestures", "PollLoop", "TextWire"]),
        // Touchpad fingers read beside libinput from the same nodes: MT slots -> touches in mm.
        .target(name: "ContactInput", dependencies: ["CLibevdev", "InputDevices", "TouchGestures", "PollLoop"]),

        // MARK: Rules

        // TOML 1.0 with a position on every table, key and value; standard library only.
        .target(name: "TOML"),
        // Rule files: parse, validate with positions, compile into recognizers.
        .target(name: "Rulebook", dependencies: ["TouchGestures", "StrokeGestures", "TOML", "InputActions", "TextWire"]),

        // MARK: Actions, streams and focus

        // Keys, text and buttons a rule presses: names checked against xkb's, no I/O.
        .target(name: "InputActions", dependencies: ["CXKBCommon"]),
        // The desktop's own channels for input actions (X11: XTEST; wlroots and niri: the
        // virtual keyboard protocol, spoken on the Wayland socket), sources of the poll loop.
        // The kernel's uinput, in C so that its ioctls and structs come from linux/uinput.h.
        .target(name: "CUinput"),
        .target(name: "InputChannels", dependencies: ["InputActions", "BusLoop", "CXCB", "CXKBCommon", "CProcess", "CUinput", "PollLoop", "TouchGestures", "TextWire"]),
        // What touchgest is deciding, on screen while fingers are down (`feedback = "on"`,
        // `debug --overlay`): a layer-shell surface on wlroots compositors, an
        // input-transparent window on X11, drawn with cairo off the recognition path; on
        // GNOME Shell the scene goes over the session bus to touchgest's extension, which draws it.
        .target(name: "Overlay", dependencies: ["TouchGestures", "PollLoop", "CProcess", "CCairo", "CXCB", "BusLoop"]),
        // Runs shell commands from a single-threaded poll loop: spawn, reap, time out.
        .target(name: "CommandRunner", dependencies: ["CProcess", "TouchGestures", "PollLoop"]),
        // JSON lines of gestures to long-lived stream commands and socket subscribers, never blocking;
        // and the subscriber's side of the socket, touchgest events.
        .target(name: "GestureStreams", dependencies: ["CProcess", "CommandRunner", "TouchGestures", "PollLoop", "TextWire"]),
        // The focused window from each desktop's IPC, one provider per desktop; wire formats only.
        .target(name: "FocusProviders", dependencies: ["TouchGestures", "PollLoop", "CXCB", "BusLoop", "TextWire"]),
        // Locked, not in front, about to sleep: logind on the system bus and the screensaver on the
        // session bus, followed without polling.
        // One D-Bus connection inside the poll loop: connect on a thread, then calls and signals without blocking.
        .target(name: "BusLoop", dependencies: ["TouchGestures", "PollLoop", "CDBus", "TextWire"]),
        .target(name: "SessionState", dependencies: ["TouchGestures", "PollLoop", "BusLoop", "TextWire"]),

        // MARK: Recordings

        // touchgest's recording format: the streaming reader that validates every line, the
        // writer, and the replay on virtual time. No libinput: replaying needs no device.
        .target(name: "Recordings", dependencies: ["TouchGestures", "InputDevices", "PollLoop"]),

        // MARK: The daemon and the executable

        // The wiring: a gesture pipeline (engine, adapters, rules, runner, streams, focus in one poll
        // loop), the reload policy, the rule watcher, the replay. Used by run, debug, replay,
        // the benchmarks and the tests alike.
        .target(
            name: "TouchgestDaemon",
            dependencies: [
                "TouchGestures", "StrokeGestures", "InputDevices", "LibinputInput", "ContactInput", "Rulebook", "CommandRunner", "GestureStreams",
                "FocusProviders", "SessionState", "Recordings", "PollLoop", "CProcess", "InputActions", "InputChannels", "TextWire", "Overlay",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What init and doctor know: the desktop, the starter rule files, the set-up checks.
        .target(name: "TouchgestSetup", dependencies: ["CommandRunner", "FocusProviders", "InputDevices", "LibinputInput", "Rulebook", "TouchGestures",
                                                      "SessionState", "PollLoop", "InputChannels", "BusLoop", "TextWire"],
                // The starter rule files `touchgest init` writes: links to examples/DESKTOP.toml,
                // embedded in the binary as bytes.
                resources: [.embedInCode("Starters")]),
        // The command-line tool: argument parsing and output formatting, one file per subcommand. It
        // imports the daemon and setup libraries, the rules and the engine whose words it prints, and
        // TextWire, which escapes and writes its lines;
        // what it needs of the layers below comes through TouchgestDaemon (LowerLayers.swift).
        .executableTarget(
            name: "touchgest",
            dependencies: [
                "TouchgestDaemon", "TouchgestSetup", "Rulebook", "TouchGestures", "StrokeGestures", "TextWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // MARK: Fuzz targets (scripts/fuzz NAME); a normal build runs their corpus and regressions

        // What every fuzz target shares: libFuzzer's entry point and driver, the regression run.
        .target(name: "FuzzSupport", dependencies: ["TestSupport"], path: "Fuzz/Support"),
        // The TOML parser alone.
        .executableTarget(name: "FuzzTOML", dependencies: ["FuzzSupport", "TOML"], path: "Fuzz/TOML", exclude: ["corpus", "regressions"]),
        // Rule-file text -> parse, validate, compile.
        .executableTarget(name: "FuzzRules", dependencies: ["FuzzSupport", "Rulebook", "TouchGestures"], path: "Fuzz/Rules",
                          exclude: ["corpus", "regressions"]),
        // Recording text -> read, validate, replay through rules.
        .executableTarget(name: "FuzzRecording", dependencies: ["FuzzSupport", "Recordings", "Rulebook", "TouchGestures"],
                          path: "Fuzz/Recording", exclude: ["corpus", "regressions"]),
        // What a touch device declares (absinfo, slots, semi-MT box corners) -> the contact geometry and sizing.
        .executableTarget(name: "FuzzDevice", dependencies: ["FuzzSupport", "ContactInput", "InputDevices", "TouchGestures"],
                          path: "Fuzz/Device", exclude: ["corpus", "regressions"]),
        // What sway, i3, Hyprland and niri send -> the focus providers' parsers.
        .executableTarget(name: "FuzzFocusWire", dependencies: ["FuzzSupport", "FocusProviders", "TextWire"], path: "Fuzz/FocusWire",
                          exclude: ["corpus", "regressions"]),

        // MARK: Benchmarks (run them in release mode; see the README's Measure)

        // What the benchmarks share: printing, percentiles, CPU clocks, rules and the seat.
        .target(name: "BenchmarkSupport", dependencies: ["InputDevices", "LibinputInput", "Rulebook", "TestSupport"], path: "Benchmarks/Support"),
        // The engine's cost per frame with 50 recognizers.
        .executableTarget(name: "EngineBenchmark", dependencies: ["TouchGestures"], path: "Benchmarks/EngineBenchmark"),
        // Matching a drawn stroke against 50 templates, at the lift and while the fingers move.
        .executableTarget(name: "StrokeBenchmark", dependencies: ["StrokeGestures", "TouchGestures"], path: "Benchmarks/StrokeBenchmark"),
        // The recognition table of the human-like corpus on the current engine.
        .executableTarget(name: "GestureCorpus", dependencies: ["HumanInput", "Rulebook", "StrokeGestures", "TouchGestures"], path: "Benchmarks/GestureCorpus"),
        // touchgest's stroke rules on real people's drawings, learned and replayed in-process, beside $1 (docs/strokes.md).
        .executableTarget(name: "StrokeStudy", dependencies: ["HumanInput", "Rulebook", "StrokeGestures", "TouchGestures", "TouchgestDaemon",
                                                             .product(name: "RealModule", package: "swift-numerics")],
                          path: "Benchmarks/StrokeStudy"),
        // Checking and compiling a large require-to-fail graph (see its header).
        .executableTarget(name: "RulebookBenchmark", dependencies: ["Rulebook", "TouchGestures"], path: "Benchmarks/RulebookBenchmark"),
        // Focus-change latency on a real sway and the window keys' cost per gesture (docs/focus.md).
        .executableTarget(
            name: "FocusBenchmark",
            dependencies: ["BenchmarkSupport", "FocusProviders", "BusLoop", "Rulebook", "TouchGestures", "PollLoop", "CXCB"],
            path: "Benchmarks/FocusBenchmark"
        ),
        // How soon a locked screen refuses gestures: LockedHint set -> session state reported (docs/session.md).
        .executableTarget(
            name: "SessionBenchmark",
            dependencies: ["BenchmarkSupport", "SessionState", "Rulebook", "TouchGestures", "PollLoop", "CDBus"],
            path: "Benchmarks/SessionBenchmark"
        ),
        // Event-to-action latency on the real libinput, through the daemon's session (scripts/measure).
        .executableTarget(
            name: "LatencyProbe",
            dependencies: ["BenchmarkSupport", "TouchgestDaemon", "InputDevices", "LibinputInput", "Rulebook", "TouchGestures", "CProcess",
                           "CommandRunner", "PollLoop"],
            path: "Benchmarks/LatencyProbe",
            exclude: ["rules.toml", "gestures.txt"]
        ),
        // Starting a command: the daemon's CPU and wake-ups per command (see its header).
        .executableTarget(name: "SpawnBenchmark", dependencies: ["CommandRunner", "TouchGestures"], path: "Benchmarks/SpawnBenchmark"),
        // The contact reader: CPU per 1,000 frames, frame -> command latency, idle wake-ups.
        .executableTarget(
            name: "ContactBenchmark",
            dependencies: ["BenchmarkSupport", "ContactInput", "InputDevices", "LibinputInput", "Rulebook", "TouchGestures", "CProcess",
                           "PollLoop"],
            path: "Benchmarks/ContactBenchmark",
            exclude: ["rules.toml", "gestures.txt"]
        ),
        // Gesture streams: event -> line read latency, CPU against a spawn per update (scripts/measure-streams).
        .executableTarget(
            name: "StreamBenchmark",
            dependencies: ["BenchmarkSupport", "InputDevices", "LibinputInput", "Rulebook", "TouchGestures", "CProcess", "CommandRunner",
                           "PollLoop", "GestureStreams"],
            path: "Benchmarks/StreamBenchmark",
            exclude: ["rules.toml", "gestures.txt", "consumer.py"]
        ),

        // MARK: Tests, one target per library where it has tests

        // Temporary folders, file reading and process helpers every test target shares.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Human-like gesture input generated in the tests: minimum-jerk swipes, jitter,
        // drift, libinput's hold-then-swipe, taps, pinches, resting fingers, a semi-MT pad's
        // box, drawn strokes (docs/recognition.md).
        .target(name: "HumanInput", dependencies: ["TouchGestures", "StrokeGestures", "Rulebook"], path: "Tests/HumanInput"),
        // The events socket with no descriptor left, in a process of its own, for the EMFILE test (see its header).
        .executableTarget(name: "AcceptLimit", dependencies: ["GestureStreams", "CProcess", "TouchGestures"], path: "Tests/AcceptLimit"),
        // 1,000 commands in a process of its own, for the leak test (see its header).
        .executableTarget(name: "RunnerSoak", dependencies: ["CommandRunner"], path: "Tests/RunnerSoak"),
        .testTarget(name: "TouchGesturesTests", dependencies: ["TouchGestures"]),
        .testTarget(name: "OverlayTests", dependencies: ["Overlay", "TouchGestures", "PollLoop", "BusLoop"]),
        .testTarget(name: "TextWireTests", dependencies: ["TextWire", "TouchGestures"]),
        .testTarget(name: "StrokeGesturesTests", dependencies: ["StrokeGestures", "TouchGestures"]),
        .testTarget(name: "TOMLTests", dependencies: ["TOML", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "RulebookTests", dependencies: ["Rulebook", "StrokeGestures", "TextWire", "TestSupport"]),
        .testTarget(name: "PollLoopTests", dependencies: ["PollLoop", "TouchGestures", "CProcess", "TestSupport"]),
        .testTarget(name: "LibinputInputTests", dependencies: ["LibinputInput", "InputDevices", "TouchGestures", "CLibinput", "TestSupport"]),
        .testTarget(name: "ContactInputTests", dependencies: ["ContactInput", "TouchGestures", "TestSupport"]),
        .testTarget(name: "BusLoopTests", dependencies: ["BusLoop", "PollLoop", "CDBus"]),
        .testTarget(name: "SessionStateTests", dependencies: ["SessionState", "BusLoop", "PollLoop", "TouchGestures", "TestSupport"]),
        .testTarget(name: "InputChannelsTests", dependencies: ["InputChannels", "InputActions", "CUinput", "TestSupport", "PollLoop", "TouchGestures"]),
        .testTarget(name: "FocusProvidersTests", dependencies: ["FocusProviders", "TextWire", "PollLoop", "TouchGestures", "TestSupport", "CProcess",
                                                              "CXCB"]),
        .testTarget(name: "GestureStreamsTests", dependencies: ["GestureStreams", "PollLoop", "TouchGestures", "Rulebook", "TestSupport",
                                                             "CommandRunner", "CProcess", "AcceptLimit"]),
        .testTarget(name: "CommandRunnerTests", dependencies: ["CommandRunner", "CProcess", "TouchGestures", "PollLoop", "RunnerSoak", "TestSupport"]),
        .testTarget(name: "RecordingsTests", dependencies: ["Recordings", "InputDevices", "TouchGestures", "TouchgestDaemon", "CommandRunner",
                                                           "TestSupport"]),
        .testTarget(name: "HumanInputTests", dependencies: ["HumanInput", "TouchGestures", "StrokeGestures", "Rulebook"]),
        .testTarget(name: "TouchgestDaemonTests", dependencies: ["TouchgestDaemon", "Rulebook", "TouchGestures", "InputDevices",
                                                              "Recordings", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "TouchgestCLITests", dependencies: ["touchgest", "CommandRunner", "TestSupport", "HumanInput", "StrokeGestures", "FuzzTOML", "FuzzRules",
                                                              "FuzzRecording", "FuzzFocusWire", "FuzzDevice"]),
        // Real libinput on umockdev-emulated devices, driven by rig/touchrig.py.
        .testTarget(name: "EndToEndTests", dependencies: ["touchgest", "CommandRunner", "TestSupport"], exclude: ["Fixtures"]),
    ]
)
