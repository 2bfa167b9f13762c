import ContactInput
import Testing
import TouchGestures

/// The contact reader's rule for a touchpad's buttons, frame by frame: contact keys in,
/// which of them are fingers to follow and the mask their touches carry out.
@Suite struct PadPressTests {
    @Test func withTheButtonUpEveryContactIsFollowedWithAnEmptyMask() {
        var press = PadPress()
        #expect(press.step(buttons: [], contacts: [1, 2]) == .follow([1, 2]))
        #expect(press.mask == [])
    }

    @Test func thePressingFingerIsNoTouchUntilItLiftsEvenAfterTheRelease() {
        var press = PadPress()
        #expect(press.step(buttons: [], contacts: [1]) == .follow([1]))
        // The press cancels every touch: a click is never a tap.
        #expect(press.step(buttons: .primary, contacts: [1]) == .pressed)
        #expect(press.step(buttons: .primary, contacts: [1]) == .follow([]))
        #expect(press.step(buttons: [], contacts: [1]) == .follow([]))
        #expect(press.mask == [])
        // Lifted and landed again (a new tracking id), it is a finger like any other.
        #expect(press.step(buttons: [], contacts: []) == .follow([]))
        #expect(press.step(buttons: [], contacts: [2]) == .follow([2]))
    }

    @Test func aFingerLandingWhileThePadIsHeldIsFollowedWithTheHeldButtons() {
        var press = PadPress()
        #expect(press.step(buttons: .primary, contacts: [1]) == .pressed)
        #expect(press.step(buttons: .primary, contacts: [1, 2]) == .follow([2]))
        #expect(press.mask == .primary)
        // The pad comes up under the moving finger: it goes on, with nothing held.
        #expect(press.step(buttons: [], contacts: [1, 2]) == .follow([2]))
        #expect(press.mask == [])
        // The thumb lifts after the release; the other finger goes on alone.
        #expect(press.step(buttons: [], contacts: [2]) == .follow([2]))
    }

    @Test func aSecondPressIsAClickAgainWhateverTheFingersWere() {
        var press = PadPress()
        #expect(press.step(buttons: .primary, contacts: [1]) == .pressed)
        #expect(press.step(buttons: .primary, contacts: [1, 2]) == .follow([2]))
        #expect(press.step(buttons: [], contacts: [1, 2]) == .follow([2]))
        #expect(press.step(buttons: .primary, contacts: [1, 2]) == .pressed)
        #expect(press.step(buttons: .primary, contacts: [1, 2, 3]) == .follow([3]))
    }

    @Test func anotherButtonJoiningAHeldOneIsNoNewPress() {
        var press = PadPress()
        #expect(press.step(buttons: .primary, contacts: []) == .pressed)
        #expect(press.step(buttons: .primary, contacts: [4]) == .follow([4]))
        #expect(press.step(buttons: [.primary, .secondary], contacts: [4]) == .follow([4]))
        #expect(press.mask == [.primary, .secondary])
    }
}
