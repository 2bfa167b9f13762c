// What every fuzz target shares: the entry point libFuzzer calls, its driver, and the
// regression run of a normal build. A target (Fuzz/NAME/) only says what one input does.
import Glibc
import TestSupport

/// Runs a fuzz target's one-input function under libFuzzer or over its saved inputs.
public enum FuzzTarget {
    /// The target's one-input function; set once by ``run(_:folder:_:)`` before any input.
    nonisolated(unsafe) static var body: ([UInt8]) -> Void = { _ in }

    /// Built with `-DFUZZING -sanitize=fuzzer` (scripts/fuzz): hands control to libFuzzer,
    /// which calls `body` with each input it makes. In a normal build: calls `body` once with
    /// every file of `folder`/corpus and `folder`/regressions, so an input that crashed the
    /// target once is checked in every test run; exits 1 when they hold no input (a
    /// misplaced checkout must not pass for a clean run). `folder` is the target's folder,
    /// or the first command-line argument when given.
    public static func run(_ name: String, folder: String, _ body: @escaping ([UInt8]) -> Void) -> Never {
        Self.body = body
        #if FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzerTestOneInput))
        #else
        let root = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : folder
        var count = 0
        for subfolder in ["corpus", "regressions"] {
            for path in files(in: "\(root)/\(subfolder)") {
                guard let bytes = readBytes(path) else {
                    print("\(name): cannot read \(path)")
                    exit(1)
                }
                body(bytes)
                count += 1
            }
        }
        guard count > 0 else {
            print("\(name): no inputs in \(root)/corpus or \(root)/regressions")
            exit(1)
        }
        print("\(name): \(count) inputs, no crash")
        exit(0)
        #endif
    }

    /// The folder holding `file`, for `#filePath`.
    public static func folder(of file: String) -> String {
        String(file[..<(file.lastIndex(of: "/") ?? file.startIndex)])
    }

    /// The paths of the files in `folder`, sorted, without hidden ones.
    static func files(in folder: String) -> [String] {
        listFolder(folder).filter { !$0.hasPrefix(".") }.map { "\(folder)/\($0)" }
    }
}

#if FUZZING
/// libFuzzer's entry point: one input, handed to the target's function.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTarget.body(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

// SwiftPM links an executable target with `main` renamed to `<Target>_main`, so
// libFuzzer's own main is never linked in; run(_:folder:_:) starts its driver instead.
@_extern(c, "LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
#endif
