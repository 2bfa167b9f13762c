import CommandRunner
import Rulebook

extension CommandRunner.Job {
    /// The job that runs a rule's command request: the rule is the key its overlap
    /// policy counts by.
    public init(_ request: CommandRequest) {
        let overlap: CommandRunner.Overlap = switch request.overlap {
        case .skip: .skip
        case .queue: .queue
        case .parallel: .parallel
        }
        self.init(key: request.rule, command: request.command, environment: request.environment, timeout: request.timeout,
                  overlap: overlap)
    }
}
