import InputChannels
import Rulebook

/// What `touchgest run` logs of the input channel: its connection and its losses at info
/// and warning (each once per cause), every key, text or click pressed with -v.
extension Daemon {
    public func inputChannel(_ report: InputChannelReport) {
        switch report {
        case let .connected(text): logger.info("input: connected to \(text)")
        case let .lost(why): logger.warning("input: keys, text and buttons cannot be pressed: \(why)")
        case let .cannotPress(why): logger.warning("input: \(why)")
        }
    }

    public func press(_ request: InputRequest) {
        logger.debug("rule \(request.rule): \(request.action)")
    }
}
