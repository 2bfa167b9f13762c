import InputDevices
import CLibinput
import Glibc

/// How this process may read an input device node: through the uaccess ACL that
/// touchgest's udev rule asks for, through a group (most often `input`), or otherwise.
/// `touchgest list-devices` says which, or why there is none.
public enum DeviceAccess: Equatable, Sendable, CustomStringConvertible {
    /// Running as root: every node.
    case root
    /// The node belongs to this user.
    case owner
    /// An ACL entry for this user: what systemd-logind gives the user of the active seat
    /// for nodes tagged `uaccess` (touchgest's udev rule tags touchpads and touchscreens).
    case uaccess
    /// A group this user is in, e.g. `input`: that group reads every input device.
    case group(String)
    /// Anyone may read it.
    case everyone
    /// This user cannot read it.
    case none

    /// Where udev reads rules from, for telling whether touchgest's is installed.
    public static let ruleFolders = ["/etc/udev/rules.d", "/run/udev/rules.d", "/usr/lib/udev/rules.d", "/lib/udev/rules.d"]
    /// The udev rule's file name.
    public static let ruleName = "70-touchgest.rules"

    /// How this process may read `path`.
    public static func of(_ path: String) -> DeviceAccess {
        var info = stat()
        guard stat(path, &info) == 0 else { return .none }
        if geteuid() == 0 { return .root }
        if info.st_uid == geteuid() && info.st_mode & S_IRUSR != 0 { return .owner }
        if userACLGrantsRead(path, uid: geteuid()) { return .uaccess }
        if info.st_mode & S_IRGRP != 0, memberOf(info.st_gid) {
            return .group(getgrgid(info.st_gid).flatMap { $0.pointee.gr_name.map { String(cString: $0) } } ?? "\(info.st_gid)")
        }
        if info.st_mode & S_IROTH != 0 { return .everyone }
        return .none
    }

    public var description: String {
        switch self {
        case .root: "root"
        case .owner: "you own the node"
        case .uaccess: "uaccess: an ACL for the user of the active seat (touchgest's udev rule; touchpads and touchscreens only)"
        case let .group(name): "the '\(name)' group (it reads every input device, keyboards included)"
        case .everyone: "the node is readable by every user"
        case .none: "none"
        }
    }

    /// Why this user cannot read input devices, and the two ways to fix it.
    public static func whyNot() -> String {
        let installed = ruleFolders.contains { access("\($0)/\(ruleName)", F_OK) == 0 }
        let rule = installed
            ? "touchgest's udev rule is installed, so the user of the active seat gets access: is your session the active one (loginctl), and was the device plugged in or re-triggered since the rule was installed (sudo udevadm trigger --subsystem-match=input --action=change)?"
            : "touchgest's udev rule (\(ruleName), installed by make install) is not installed: it gives the user of the active seat access to touchpads and touchscreens only."
        return "\(rule) The other way is the 'input' group, which reads every input device, keyboards included (see the README)."
    }

    /// Whether the node's POSIX ACL has an entry for `uid` that allows reading (and the
    /// mask does not take it away). The xattr is a version (2) and entries of tag, perm, id.
    static func userACLGrantsRead(_ path: String, uid: uid_t) -> Bool {
        var bytes = [UInt8](repeating: 0, count: 1024)
        let length = getxattr(path, "system.posix_acl_access", &bytes, bytes.count)
        guard length >= 4 else { return false }
        func number(_ at: Int, _ size: Int) -> UInt32 {
            (0..<size).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) }
        }
        guard number(0, 4) == 2 else { return false }
        var userReads = false
        var mask: UInt32?
        var offset = 4
        while offset + 8 <= length {
            let tag = number(offset, 2)
            let permissions = number(offset + 2, 2)
            let id = number(offset + 4, 4)
            if tag == 0x02 && id == uid { userReads = permissions & 4 != 0 }
            if tag == 0x10 { mask = permissions }
            offset += 8
        }
        return userReads && (mask.map { $0 & 4 != 0 } ?? true)
    }

    private static func memberOf(_ group: gid_t) -> Bool {
        if getegid() == group { return true }
        let count = getgroups(0, nil)
        guard count > 0 else { return false }
        var groups = [gid_t](repeating: 0, count: Int(count))
        let got = getgroups(count, &groups)
        return got > 0 && groups.prefix(Int(got)).contains(group)
    }
}
