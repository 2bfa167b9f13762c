// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "touchgest",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "TouchGestures", targets: ["TouchGestures"]),
        .executable(name: "touchgest", targets: ["touchgest"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // The engine: UIKit's gesture-recognizer model with no system dependency.
        .target(
            name: "TouchGestures",
            dependencies: [.product(name: "RealModule", package: "swift-numerics")]
        ),
        .testTarget(name: "TouchGesturesTests", dependencies: ["TouchGestures"]),
        // TOML 1.0 with a position on every table, key and value; standard library only.
        .target(name: "TOML"),
        .testTarget(name: "TOMLTests", dependencies: ["TOML", "TestSupport"], exclude: ["Fixtures"]),
        // Rule files: parse, validate with positions, compile into recognizers.
        .target(name: "Rulebook", dependencies: ["TouchGestures", "TOML"]),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "RulebookTests", dependencies: ["Rulebook", "TestSupport"]),
        // libinput + libudev, seen only by the input adapter.
        .systemLibrary(
            name: "CLibinput",
            pkgConfig: "libinput",
            providers: [.apt(["libinput-dev", "libudev-dev"])]
        ),
        // One thread, one poll: sources of descriptors and deadlines, and the real scheduler.
        .target(name: "PollLoop", dependencies: ["TouchGestures", "CProcess"]),
        .testTarget(name: "PollLoopTests", dependencies: ["PollLoop", "TouchGestures", "CProcess", "TestSupport"]),
        .target(name: "LibinputInput", dependencies: ["CLibinput", "TouchGestures", "PollLoop"]),
        // libevdev, seen only by the contact reader.
        .systemLibrary(name: "CLibevdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        // Touchpad fingers read beside libinput from the same nodes: MT slots -> touches in mm.
        .target(name: "ContactInput", dependencies: ["CLibevdev", "TouchGestures", "PollLoop"]),
        // libxcb, seen only by the X11 focus provider.
        .systemLibrary(name: "CXCB", pkgConfig: "xcb", providers: [.apt(["libxcb1-dev"])]),
        // The focused window from each desktop's IPC, one provider per desktop; wire formats only.
        // libdbus-1, seen only by the KDE and GNOME focus provider.
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .target(name: "FocusProviders", dependencies: ["TouchGestures", "PollLoop", "CXCB", "CDBus"]),
        .testTarget(name: "FocusProvidersTests", dependencies: ["FocusProviders", "PollLoop", "TouchGestures", "TestSupport"]),
        // Runs shell commands from a single-threaded poll loop: spawn, reap, time out.
        .target(name: "CProcess"),
        .target(name: "CommandRunner", dependencies: ["CProcess", "TouchGestures", "PollLoop"]),
        // JSON lines of gestures to long-lived stream commands and socket subscribers, never blocking.
        .target(name: "GestureStreams", dependencies: ["CProcess", "CommandRunner", "TouchGestures", "PollLoop"]),
        .testTarget(name: "GestureStreamsTests", dependencies: ["GestureStreams", "PollLoop", "TouchGestures", "Rulebook", "TestSupport",
                                                             "CommandRunner", "CProcess", "AcceptLimit"]),
        // The events socket with no descriptor left, in a process of its own, for the EMFILE test (see its header).
        .executableTarget(name: "AcceptLimit", dependencies: ["GestureStreams", "CProcess", "TouchGestures"], path: "Tests/AcceptLimit"),
        .testTarget(name: "CommandRunnerTests", dependencies: ["CommandRunner", "TouchGestures", "PollLoop", "RunnerSoak", "TestSupport"]),
        // 1,000 commands in a process of its own, for the leak test (see its header).
        .executableTarget(name: "RunnerSoak", dependencies: ["CommandRunner"], path: "Tests/RunnerSoak"),
        // touchgest's recording format: the streaming reader that validates every line, the
        // writer, and the replay on virtual time.
        .target(name: "Recordings", dependencies: ["TouchGestures", "LibinputInput", "PollLoop"]),
        .testTarget(name: "RecordingsTests", dependencies: ["Recordings", "TouchGestures", "LibinputInput", "CommandRunner", "TestSupport"]),
        // libFuzzer targets (scripts/fuzz NAME); a normal build replays their corpus and regressions.
        // What every fuzz target shares: libFuzzer's entry point and driver, the regression run.
        .target(name: "FuzzSupport", dependencies: ["TestSupport"], path: "Fuzz/Support"),
        .executableTarget(
            name: "FuzzRecording",
            dependencies: ["FuzzSupport", "Recordings", "Rulebook", "TouchGestures"],
            path: "Fuzz/Recording",
            exclude: ["corpus", "regressions"]
        ),
        // The command-line tool; thin: one file per subcommand.
        .executableTarget(
            name: "touchgest",
            dependencies: [
                "Rulebook", "CommandRunner", "TouchGestures", "LibinputInput", "ContactInput", "CProcess", "PollLoop", "Recordings",
                "FocusProviders", "GestureStreams",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "TouchgestCLITests", dependencies: ["touchgest", "CommandRunner", "TestSupport", "HumanInput", "FuzzTOML", "FuzzRules", "FuzzRecording",
                                                              "FuzzFocusWire"]),
        // Real libinput on umockdev-emulated devices, driven by rig/touchrig.py.
        .testTarget(name: "EndToEndTests", dependencies: ["touchgest", "CommandRunner", "TestSupport"], exclude: ["Fixtures"]),
        // libFuzzer targets (scripts/fuzz NAME); a normal build runs their corpus and regressions.
        .executableTarget(name: "FuzzTOML", dependencies: ["FuzzSupport", "TOML"], path: "Fuzz/TOML", exclude: ["corpus", "regressions"]),
        .executableTarget(name: "FuzzRules", dependencies: ["FuzzSupport", "Rulebook", "TouchGestures"], path: "Fuzz/Rules",
                          exclude: ["corpus", "regressions"]),
        .executableTarget(name: "FuzzFocusWire", dependencies: ["FuzzSupport", "FocusProviders"], path: "Fuzz/FocusWire",
                          exclude: ["corpus", "regressions"]),
        // Measures the engine's cost per frame; run it in release mode (see README).
        .executableTarget(
            name: "EngineBenchmark",
            dependencies: ["TouchGestures"],
            path: "Benchmarks/EngineBenchmark"
        ),
        // Human-like gesture input generated in the tests: minimum-jerk swipes, jitter,
        // drift, libinput's hold-then-swipe, taps, pinches, resting fingers (docs/recognition.md).
        .target(name: "HumanInput", dependencies: ["TouchGestures", "Rulebook"], path: "Tests/HumanInput"),
        .testTarget(name: "HumanInputTests", dependencies: ["HumanInput", "TouchGestures", "Rulebook"]),
        // Prints the recognition table of that corpus on the current engine; run it in release mode.
        .target(name: "BenchmarkSupport", dependencies: ["LibinputInput", "Rulebook", "TestSupport"], path: "Benchmarks/Support"),
        .executableTarget(name: "GestureCorpus", dependencies: ["HumanInput", "Rulebook"], path: "Benchmarks/GestureCorpus"),
        // Measures checking and compiling a large require-to-fail graph (see its header).
        .executableTarget(
            name: "RulebookBenchmark",
            dependencies: ["Rulebook", "TouchGestures"],
            path: "Benchmarks/RulebookBenchmark"
        ),
        // Measures focus-change latency on a real sway and the window keys' cost per gesture (docs/focus.md).
        .executableTarget(
            name: "FocusBenchmark",
            dependencies: ["BenchmarkSupport", "FocusProviders", "Rulebook", "TouchGestures", "PollLoop", "CXCB"],
            path: "Benchmarks/FocusBenchmark"
        ),
        // Measures event-to-action latency on the real libinput (scripts/measure).
        .executableTarget(
            name: "LatencyProbe",
            dependencies: ["BenchmarkSupport", "LibinputInput", "Rulebook", "TouchGestures", "CProcess", "CommandRunner", "PollLoop"],
            path: "Benchmarks/LatencyProbe",
            exclude: ["rules.toml", "gestures.txt"]
        ),
        // Measures the contact reader: CPU per 1,000 frames, frame -> command latency, idle wake-ups.
        .executableTarget(
            name: "ContactBenchmark",
            dependencies: ["BenchmarkSupport", "ContactInput", "LibinputInput", "Rulebook", "TouchGestures", "CProcess", "PollLoop"],
            path: "Benchmarks/ContactBenchmark",
            exclude: ["rules.toml", "gestures.txt"]
        ),
        // Measures gesture streams: event -> line read latency, CPU against a spawn per update (scripts/measure-streams).
        .executableTarget(
            name: "StreamBenchmark",
            dependencies: ["BenchmarkSupport", "LibinputInput", "Rulebook", "TouchGestures", "CProcess", "CommandRunner", "PollLoop", "GestureStreams"],
            path: "Benchmarks/StreamBenchmark",
            exclude: ["rules.toml", "gestures.txt", "consumer.py"]
        ),
    ]
)
