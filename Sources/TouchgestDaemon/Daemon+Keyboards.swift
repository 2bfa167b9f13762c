/// What `touchgest run` logs of the keyboards read for their modifier keys
/// (`modifier-source = "keyboards"`): each keyboard coming and going at info, the
/// modifiers held with -vv, in the events' own words (``KeyboardEvent/description``, which
/// `debug` prints too). No other key reaches the log: the adapter drops it where it reads it.
extension Daemon {
    public func keyboard(_ event: KeyboardEvent) {
        switch event {
        case .added, .removed: logger.info("\(event)")
        case .modifiers: logger.trace("\(event)")
        }
    }

    /// Once at start: where the modifier keys come from when the keyboards give them, and
    /// a warning when none can be read.
    func sayModifierSource() {
        guard let pipeline, pipeline.modifiersFromKeyboards else { return }
        if pipeline.input.keyboards.isEmpty {
            logger.warning("modifier-source = \"keyboards\", but no keyboard can be read (the 'input' group reads them); rules that want modifier keys held do not fire until one can")
        } else {
            logger.info("modifier keys: read from the keyboards (Ctrl, Shift, Alt, Super and Caps Lock only; all others are dropped at once)")
        }
    }
}
