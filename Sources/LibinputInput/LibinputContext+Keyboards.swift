import CLibinput
import InputDevices

/// Keyboards: refused to libinput unless their modifier keys are wanted, and then read for
/// those keys only.
extension LibinputContext {
    /// Whether `path` is a keyboard libinput may not open: without
    /// ``Options/readsModifierKeys`` a node udev marks `ID_INPUT_KEYBOARD` is never opened,
    /// so that no keystroke even wakes touchgest. A touchpad or touchscreen that also has
    /// keys (udev marks it a keyboard too) is still opened; a touchpad's buttons make it
    /// `ID_INPUT_KEY` at most, not a keyboard.
    func keyboardNodeRefused(_ path: String) -> Bool {
        guard !options.readsModifierKeys, let udev else { return false }
        // libinput opens the device's udev node, /dev/input/eventN, on either backend.
        guard let name = path.split(separator: "/").last,
              let device = udev_device_new_from_subsystem_sysname(udev, "input", String(name)) else { return false }
        defer { udev_device_unref(device) }
        func marked(_ property: String) -> Bool { udev_device_get_property_value(device, property).map { String(cString: $0) == "1" } ?? false }
        guard marked("ID_INPUT_KEYBOARD") && !marked("ID_INPUT_TOUCHPAD") && !marked("ID_INPUT_TOUCHSCREEN") else { return false }
        refusedKeyboards.append(path)
        return true
    }

    /// Keeps `device`, a keyboard libinput opened because its modifier keys are wanted.
    func keyboardAdded(_ device: OpaquePointer) {
        libinput_device_ref(device)
        let node = "/dev/input/" + String(cString: libinput_device_get_sysname(device))
        keyboardStates[device] = (nextDeviceNumber, node)
        nextDeviceNumber += 1
        keyboardHandler?(.added(node: node, name: String(cString: libinput_device_get_name(device))))
    }

    /// Reads of a key only whether it is a modifier, up or down. Any other key is dropped
    /// here: its code goes nowhere, not even into a log.
    func key(_ event: OpaquePointer, keyboard: Int) {
        let keyEvent = libinput_event_get_keyboard_event(event)!
        let code = libinput_event_keyboard_get_key(keyEvent)
        guard ModifierKeys.isModifier(code) else { return }
        let pressed = libinput_event_keyboard_get_key_state(keyEvent) == LIBINPUT_KEY_STATE_PRESSED
        if modifierKeys.key(code, pressed: pressed, keyboard: keyboard) { keyboardHandler?(.modifiers(modifierKeys.flags)) }
    }
}
