import ArgumentParser
import Rulebook
import TouchgestDaemon

extension GesturePipeline {
    /// Opens a gesture pipeline for a subcommand, or prints why not and exits 1; warns about
    /// devices that could not be opened.
    static func open(_ input: InputOptions, book: Rulebook? = nil, runCommands: Bool, observer: GesturePipelineObserver) throws -> GesturePipeline {
        let pipeline: GesturePipeline
        do {
            pipeline = try GesturePipeline(backend: input.backend, options: input.adapterOptions(with: book), runCommands: runCommands,
                                  observer: observer)
        } catch {
            printError("touchgest: error: \(error)")
            throw ExitCode(1)
        }
        for problem in pipeline.input.problems { printError("touchgest: warning: \(problem)") }
        return pipeline
    }
}
