import ArgumentParser
import Rulebook
import TouchgestDaemon

extension Session {
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
        return session
    }
}
