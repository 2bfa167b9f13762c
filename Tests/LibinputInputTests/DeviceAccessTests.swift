import Glibc
import CLibinput
@testable import LibinputInput
import TestSupport
import Testing

/// touchgest's udev rule, and how list-devices tells which access a user has.
@Suite struct DeviceAccessTests {
    /// What udev would do with `udev/70-touchgest.rules` for a device with `properties`:
    /// whether it tags the node `uaccess`. Follows the rule file's matches, GOTO and LABEL.
    static func tagsUaccess(_ properties: [String: String]) -> Bool {
        func trimmed(_ text: Substring) -> String {
            String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        }
        let lines = readText("\(packageRoot)/udev/70-touchgest.rules").split(separator: "\n")
            .map { trimmed($0) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        var tagged = false
        var skippingTo: String?
        for line in lines {
            let parts = line.split(separator: ",").map { trimmed($0) }
            if let label = skippingTo {
                if parts.contains("LABEL=\"\(label)\"") { skippingTo = nil }
                continue
            }
            var matched = true
            for part in parts {
                for op in ["==", "!="] {
                    guard let range = part.firstRange(of: op) else { continue }
                    let value = part[range.upperBound...].filter { $0 != "\"" }
                    let actual = properties[String(part[..<range.lowerBound])] ?? ""
                    let equal = fnmatch(value, actual, 0) == 0
                    if equal != (op == "==") { matched = false }
                }
            }
            guard matched else { continue }
            for part in parts {
                if part == "TAG+=\"uaccess\"" { tagged = true }
                if part.hasPrefix("GOTO=") { skippingTo = String(part.dropFirst(6).dropLast()) }
            }
        }
        return tagged
    }

    static func node(_ extra: [String: String]) -> [String: String] {
        ["ACTION": "add", "SUBSYSTEM": "input", "KERNEL": "event7", "ENV{ID_INPUT}": "1"].merging(extra) { _, new in new }
    }

    @Test func theUdevRuleTagsTouchpadsAndTouchscreensAndNothingElse() {
        #expect(Self.tagsUaccess(Self.node(["ENV{ID_INPUT_TOUCHPAD}": "1"])))
        #expect(Self.tagsUaccess(Self.node(["ENV{ID_INPUT_TOUCHSCREEN}": "1"])))
        #expect(!Self.tagsUaccess(Self.node(["ENV{ID_INPUT_KEYBOARD}": "1", "ENV{ID_INPUT_KEY}": "1"])))
        #expect(!Self.tagsUaccess(Self.node(["ENV{ID_INPUT_MOUSE}": "1"])))
        // A node that is a keyboard too keeps its keystrokes private.
        #expect(!Self.tagsUaccess(Self.node(["ENV{ID_INPUT_TOUCHPAD}": "1", "ENV{ID_INPUT_KEYBOARD}": "1"])))
        // Only event nodes, and not the legacy mouseN node of the same touchpad.
        #expect(!Self.tagsUaccess(Self.node(["KERNEL": "mouse2", "ENV{ID_INPUT_TOUCHPAD}": "1"])))
        #expect(!Self.tagsUaccess(Self.node(["SUBSYSTEM": "hidraw", "ENV{ID_INPUT_TOUCHPAD}": "1"])))
    }

    /// A POSIX ACL xattr: version 2, then (tag, permissions, id) entries.
    static func acl(_ entries: [(UInt16, UInt16, UInt32)]) -> [UInt8] {
        var bytes: [UInt8] = [2, 0, 0, 0]
        for (tag, permissions, id) in entries {
            bytes += [UInt8(tag & 0xFF), UInt8(tag >> 8), UInt8(permissions & 0xFF), UInt8(permissions >> 8)]
            bytes += (0..<4).map { UInt8((id >> (8 * UInt32($0))) & 0xFF) }
        }
        return bytes
    }

    @Test func anACLEntryForTheUserIsUaccessUnlessTheMaskTakesItAway() throws {
        let path = "\(temporaryFolder())/node"
        writeText(path, "")
        let owner: (UInt16, UInt16, UInt32) = (0x01, 6, UInt32.max)
        let group: (UInt16, UInt16, UInt32) = (0x04, 4, UInt32.max)
        let others: (UInt16, UInt16, UInt32) = (0x20, 0, UInt32.max)
        func set(_ entries: [(UInt16, UInt16, UInt32)]) throws {
            let bytes = Self.acl(entries)
            guard setxattr(path, "system.posix_acl_access", bytes, bytes.count, 0) == 0 else {
                throw ACLUnsupported(errno: errno)
            }
        }
        // The kernel wants entries in tag order: owner, users, group, mask, others.
        try set([owner, (0x02, 4, 4242), group, (0x10, 4, UInt32.max), others])
        #expect(DeviceAccess.userACLGrantsRead(path, uid: 4242))
        #expect(!DeviceAccess.userACLGrantsRead(path, uid: 4243))
        try set([owner, (0x02, 4, 4242), group, (0x10, 0, UInt32.max), others])
        #expect(!DeviceAccess.userACLGrantsRead(path, uid: 4242))
    }

    struct ACLUnsupported: Error {
        var errno: Int32
    }
}
