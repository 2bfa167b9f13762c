import Glibc
import TestSupport
import Testing

/// `touchgest init` in a clean environment: a fake HOME and only the variables given.
@Suite struct InitCommandTests {
    static func initIn(_ home: String, _ variables: String, _ arguments: String = "") -> Result {
        touchgest("init \(arguments)", prefix: "env -i HOME=\(home) PATH=/usr/bin:/bin \(variables) ")
    }

    @Test(arguments: [
        ("XDG_CURRENT_DESKTOP=sway", "sway"), ("SWAYSOCK=/run/user/1000/sway-ipc.sock", "sway"),
        ("XDG_CURRENT_DESKTOP=Hyprland", "hyprland"), ("HYPRLAND_INSTANCE_SIGNATURE=abc", "hyprland"),
        ("XDG_CURRENT_DESKTOP=niri", "niri"), ("NIRI_SOCKET=/run/user/1000/niri.sock", "niri"),
        ("XDG_CURRENT_DESKTOP=ubuntu:GNOME WAYLAND_DISPLAY=wayland-0", "gnome"), ("XDG_CURRENT_DESKTOP=KDE", "kde"),
        ("DISPLAY=:0", "x11"),
    ])
    func writesTheDesktopsStarterThatCheckAccepts(_ variables: String, _ desktop: String) {
        let home = temporaryFolder()
        let result = Self.initIn(home, variables)
        let path = "\(home)/.config/touchgest/rules.toml"
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("wrote \(path) for "))
        #expect(result.stdout.contains("\nnext:\n  touchgest doctor"))
        var status = stat()
        #expect(lstat(path, &status) == 0)
        #expect(status.st_mode & 0o7777 == 0o600)
        #expect(status.st_mode & S_IFMT == S_IFREG)
        // The file is the shipped example under a comment: the embedded copy is current
        // (the build embeds the examples through Sources/TouchgestSetup/Starters).
        let text = readText(path)
        #expect(text.hasPrefix("# Written by `touchgest init` for "))
        #expect(text.hasSuffix("\n\n" + readText("\(packageRoot)/examples/\(desktop).toml")))
        let check = touchgest("check \(path)")
        #expect(check.status == 0 && check.stdout == "ok\n", "\(check.stderr)")
        #expect(check.stderr.isEmpty)
    }

    @Test func theRulesOptionAndTheDesktopOptionWin() {
        let folder = temporaryFolder()
        let result = Self.initIn(folder, "XDG_CURRENT_DESKTOP=GNOME", "--desktop kde --rules \(folder)/new/rules.toml")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("wrote \(folder)/new/rules.toml for KDE Plasma (--desktop kde)"))
    }

    @Test func refusesToOverwriteAFile() {
        let home = temporaryFolder()
        #expect(Self.initIn(home, "XDG_CURRENT_DESKTOP=sway").status == 0)
        let path = "\(home)/.config/touchgest/rules.toml"
        writeText(path, "# mine\n")
        let again = Self.initIn(home, "XDG_CURRENT_DESKTOP=KDE")
        #expect(again.status == 1)
        #expect(again.stderr == "touchgest: error: \(path) already exists; touchgest init never overwrites a rule file. Check it with 'touchgest check', or move it away (mv '\(path)' '\(path).old') and run init again\n")
        #expect(readText(path) == "# mine\n")
    }

    @Test func refusesToWriteThroughASymlink() {
        let home = temporaryFolder()
        mkdir("\(home)/.config", 0o700)
        mkdir("\(home)/.config/touchgest", 0o700)
        let path = "\(home)/.config/touchgest/rules.toml"
        symlink("\(home)/elsewhere.toml", path)
        let result = Self.initIn(home, "XDG_CURRENT_DESKTOP=sway")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("touchgest: error: \(path) is a symlink; touchgest init never writes through one."))
        #expect(access("\(home)/elsewhere.toml", F_OK) != 0)
    }

    @Test func anUnknownDesktopAsksForTheOption() {
        let home = temporaryFolder()
        let result = Self.initIn(home, "XDG_CURRENT_DESKTOP=Weird WAYLAND_DISPLAY=wayland-0")
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot tell which desktop this is"))
        #expect(result.stderr.contains("--desktop, one of sway, hyprland, niri, gnome, kde, x11"))
        #expect(access("\(home)/.config/touchgest/rules.toml", F_OK) != 0)
    }
}
