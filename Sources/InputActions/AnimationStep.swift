/// One moment of a desktop animation that follows a rule's gesture under the fingers
/// (the rule key `follow`): what touchgest hands the desktop, which moves its own
/// animation as its own swipe would and decides at the end whether to finish it.
public struct AnimationStep: Sendable, Equatable, CustomStringConvertible {
    /// The desktop's animation.
    public enum Animation: String, Sendable, CaseIterable {
        /// The switch to a neighbouring workspace: positive progress towards the next.
        case workspaces
        /// The overview: positive progress opens it (and past 1, GNOME's app grid).
        case overview
    }

    /// Where the gesture is.
    public enum Phase: String, Sendable, CaseIterable {
        /// The fingers began to move: the desktop starts its animation where it stands.
        case begin
        /// They moved: the animation is at ``AnimationStep/progress``.
        case update
        /// They lifted: the desktop finishes the animation or goes back, from how far and
        /// how fast the fingers went.
        case end
        /// The gesture was cancelled (touchgest stopped it: a reload, the screen locked):
        /// the animation goes back to where it began.
        case cancel
    }

    public var animation: Animation
    public var phase: Phase
    /// Signed, in whole animations since the gesture began: 1 is one workspace further
    /// (or the overview open), -1 one back; the rule's `progress-distance` is 1.
    public var progress: Double
    /// When the fingers were there, in milliseconds of the input's clock (libinput's
    /// monotonic time), wrapping at 2^32 as GNOME's event times do: the desktop reads the
    /// fingers' speed from these.
    public var milliseconds: UInt32

    public init(animation: Animation, phase: Phase, progress: Double, milliseconds: UInt32) {
        self.animation = animation
        self.phase = phase
        self.progress = progress
        self.milliseconds = milliseconds
    }

    /// `workspaces update 0.420`: what `debug` shows and the log says.
    public var description: String {
        let thousandths = (progress * 1000).rounded()
        let text = thousandths.isFinite ? String(format3: thousandths) : "\(progress)"
        return "\(animation.rawValue) \(phase.rawValue) \(text)"
    }
}

extension String {
    /// `thousandths` (a whole number) as a decimal with 3 places: 420 -> "0.420".
    fileprivate init(format3 thousandths: Double) {
        let whole = Int(thousandths.magnitude)
        let fraction = String(whole % 1000)
        self = (thousandths < 0 ? "-" : "") + "\(whole / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
