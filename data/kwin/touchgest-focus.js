// touchgest's KWin script: tells touchgest which window is active, for rules with an
// application or title key (touchgest-rules(5)). touchgest loads it over D-Bus
// (org.kde.KWin /Scripting loadScript, then start) when it runs with --focus kde;
// nothing to install by hand. It calls touchgest back on the session bus:
//   org.touchgest.Focus /org/touchgest/Focus org.touchgest.Focus.WindowActivated(class, caption)
// with an empty class for no window. Plasma 6 names windows "window", Plasma 5 "client".

var service = "org.touchgest.Focus";
var path = "/org/touchgest/Focus";
var iface = "org.touchgest.Focus";
var watched = null;

function report(window) {
    if (!window) {
        callDBus(service, path, iface, "WindowActivated", "", "");
        return;
    }
    callDBus(service, path, iface, "WindowActivated", String(window.resourceClass || ""), String(window.caption || ""));
}

function reportActive() {
    report(workspace.activeWindow !== undefined ? workspace.activeWindow : workspace.activeClient);
}

function activated(window) {
    // The active window's title changes are reported too, for title rules.
    if (watched && watched.captionChanged) {
        watched.captionChanged.disconnect(reportActive);
    }
    watched = window;
    if (window && window.captionChanged) {
        window.captionChanged.connect(reportActive);
    }
    report(window);
}

if (workspace.windowActivated !== undefined) {
    workspace.windowActivated.connect(activated);
} else {
    workspace.clientActivated.connect(activated);
}
activated(workspace.activeWindow !== undefined ? workspace.activeWindow : workspace.activeClient);
