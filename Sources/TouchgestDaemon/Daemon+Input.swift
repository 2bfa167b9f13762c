import InputChannels
import Rulebook

/// What `touchgest run` logs of the input channel: its connection and its losses at info
/// and warning (each once per cause), in the report's own words
/// (``InputChannelReport/description``, which `debug` prints too); every key, text or
/// click pressed with -v.
extension Daemon {
    public func inputChannel(_ report: InputChannelReport) {
        switch report {
        case .connected: logger.info("\(report)")
        case .lost, .cannotPress: logger.warning("\(report)")
        }
    }

    public func press(_ request: InputRequest) {
        logger.debug("rule \(request.rule): \(request.action)")
    }

    /// Each step handed to the desktop, with -vv (a pan makes one per frame).
    public func follow(_ request: FollowRequest) {
        logger.trace("rule \(request.rule): follows \(request.step)")
    }
}
