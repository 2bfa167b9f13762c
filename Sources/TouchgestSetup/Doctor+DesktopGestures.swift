import Rulebook

/// What becomes of the desktop's own gestures with `desktop-gestures = "yield"`, and of
/// its animations under rules with `follow`, desktop by desktop.
extension Doctor {
    /// The counts, as people say them: `3-finger`, `3- and 4-finger`.
    static func fingerWords(_ counts: Set<Int>) -> String {
        let sorted = counts.sorted().map(String.init)
        guard let last = sorted.last else { return "" }
        return sorted.count == 1 ? "\(last)-finger" : "\(sorted.dropLast().joined(separator: "-, "))- and \(last)-finger"
    }

    /// With `yield`: what touchgest takes from `desktop`, or what the user can do by hand.
    mutating func checkYield(_ book: Rulebook, _ desktop: Desktop, evidence: String) {
        let bound = book.touchpadSwipeFingers
        let name = desktop == .x11 ? "X11" : desktop.title
        guard !bound.isEmpty else {
            return add(.ok, "desktop", "\(name) (\(evidence)): desktop-gestures = \"yield\", but no rule binds a touchpad swipe, so nothing of its own is taken")
        }
        let swipes = "\(Self.fingerWords(bound)) touchpad swipes"
        switch desktop {
        case .gnome:
            add(.ok, "desktop", "GNOME (\(evidence)): its own \(swipes) are yielded through touchgest's extension while touchgest runs (desktop-gestures = \"yield\"), and come back when it stops")
        case .hyprland:
            add(.ok, "desktop", "Hyprland (\(evidence)): while rules bind \(swipes), touchgest turns Hyprland's own workspace swipe off through its socket (before Hyprland 0.51: gestures:workspace_swipe, "
                + "or only workspace_swipe_min_fingers when only more fingers than its own clash), and back on when touchgest stops or its rules no longer bind them; "
                + "if touchgest is killed first, 'hyprctl reload' turns it back on")
            add(.note, "desktop", "Hyprland 0.51 and later bind their swipes with 'gesture =' lines, which the socket does not list: there touchgest takes nothing (its log says so), and the lines with the fingers your rules bind are yours to remove",
                fix: "grep -n 'gesture *=' ~/.config/hypr/hyprland.conf")
        case .kde:
            guard bound.contains(4) else {
                return add(.ok, "desktop", "KDE Plasma (\(evidence)): KWin's own touchpad swipes are of 4 fingers, which no rule binds, so there is nothing to yield")
            }
            add(.warn, "desktop", "KDE Plasma (\(evidence)): touchgest cannot ask KWin to yield, and KWin 5.27 and 6 have no setting for their own 4-finger touchpad swipes: "
                + "left and right switch virtual desktops (built in), up and down belong to desktop effects (the Overview; in 5.27 also Present Windows and the Desktop Grid), which go only with the effect",
                fix: "bind 3-finger swipes instead (examples/kde.toml does); or turn the effect off in System Settings > Workspace Behavior > Desktop Effects "
                    + "(the Overview: kwriteconfig6 --file kwinrc --group Plugins --key overviewEnabled false, then qdbus6 org.kde.KWin /KWin reconfigure; kwriteconfig5 and qdbus on 5.27)")
        case .niri:
            let clashing = bound.intersection(3...4)
            guard !clashing.isEmpty else {
                return add(.ok, "desktop", "niri (\(evidence)): niri's own touchpad swipes are of 3 and 4 fingers, which no rule binds, so there is nothing to yield")
            }
            add(.warn, "desktop", "niri (\(evidence)): touchgest cannot ask niri to yield its own \(Self.fingerWords(clashing)) touchpad swipes (3: columns and workspaces; 4: the overview, since 25.05), so they fire too",
                fix: "bind other gestures (taps, holds, pinches, 5-finger swipes)")
        case .sway:
            add(.note, "desktop", "sway (\(evidence)) has no touchpad gestures of its own by default; the 'bindgesture' lines in its config are yours: remove those for \(swipes), as touchgest does not change sway's config",
                fix: "grep -n bindgesture ~/.config/sway/config")
        case .x11:
            add(.note, "desktop", "X11 (\(evidence)): the X server has no touchpad gestures of its own, so there is nothing to yield; a window manager or a tool (touchegg, libinput-gestures) that binds \(swipes) is yours to stop")
        }
    }

    /// Each rule with `follow`: whether the desktop's animation follows the fingers, or what
    /// happens instead.
    mutating func checkFollow(_ book: Rulebook, _ desktop: Desktop) {
        for rule in book.rules {
            guard let target = rule.follow else { continue }
            let what = "rule '\(rule.name)': follow = \"\(target.rawValue)\""
            let jump = "so the rule does what it says without follow: its command or action at its threshold, a jump"
            switch desktop {
            case .gnome:
                add(.ok, "desktop", "\(what): GNOME's \(target == .overview ? "overview" : "workspace") animation follows the fingers through touchgest's extension, and GNOME decides at the lift whether to finish or go back")
            case .hyprland:
                add(.note, "desktop", "\(what): Hyprland's animation cannot be driven from outside (only its own gesture or a plugin moves it), \(jump)")
            case .kde:
                add(.note, "desktop", "\(what): KWin's animation cannot be driven from outside (a virtual touchpad would; touchgest has none yet), \(jump)")
            case .niri:
                add(.note, "desktop", "\(what): niri's animation cannot be driven over its IPC, \(jump)")
            case .sway:
                add(.note, "desktop", "\(what): sway has no such animation, \(jump)")
            case .x11:
                add(.note, "desktop", "\(what): touchgest cannot drive an X11 window manager's animation, \(jump)")
            }
        }
    }
}
