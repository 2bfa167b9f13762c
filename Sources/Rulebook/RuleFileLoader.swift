import Glibc

extension Rulebook {
    /// Reads, checks and parses the rule file at `path`.
    ///
    /// A file that other users can write is refused: whoever can edit it can make
    /// touchgest run commands as you.
    ///
    /// With `requireSafePermissions` false (nothing will run: a replay), the permission
    /// problem becomes a warning.
    public static func load(path: String, requireSafePermissions: Bool = true) throws(RuleFileError) -> Rulebook {
        let text = try readRuleFile(path)
        var unsafe: [Diagnostic] = []
        do {
            try checkPermissions(path)
        } catch {
            guard !requireSafePermissions else { throw error }
            unsafe = error.diagnostics.map { diagnostic in
                var warning = diagnostic
                warning.severity = .warning
                return warning
            }
        }
        var book = try parse(text, file: path)
        book.warnings = unsafe + book.warnings
        return book
    }

    static func readRuleFile(_ path: String) throws(RuleFileError) -> String {
        guard let file = fopen(path, "r") else {
            throw fileError(path, "cannot read the rule file: \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count > 0 { bytes += buffer[..<count] }
            if count < buffer.count { break }
        }
        if ferror(file) != 0 { throw fileError(path, "cannot read the rule file: \(String(cString: strerror(errno)))") }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw fileError(path, "the rule file is not UTF-8 text")
        }
        return text
    }

    /// Refuses a rule file (or its folder) that users other than its owner can change.
    static func checkPermissions(_ path: String) throws(RuleFileError) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        let writable = info.st_mode & (S_IWGRP | S_IWOTH)
        if writable != 0 {
            let who = info.st_mode & S_IWOTH != 0 ? "any user" : "its group"
            throw fileError(path, "refusing a rule file that \(who) can write (mode \(octal(info.st_mode & 0o777))): whoever can edit it can run commands as you; fix it with: chmod go-w '\(path)'")
        }
        let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        var folderInfo = stat()
        guard stat(folder.isEmpty ? "/" : folder, &folderInfo) == 0 else { return }
        // A sticky folder such as /tmp lets users replace only their own files.
        if folderInfo.st_mode & S_IWOTH != 0 && folderInfo.st_mode & S_ISVTX == 0 {
            throw fileError(path, "refusing a rule file in '\(folder)', which any user can write: they could replace the file; move it to a folder only you can write")
        }
    }

    private static func fileError(_ path: String, _ message: String) -> RuleFileError {
        RuleFileError(diagnostics: [Diagnostic(file: path, line: 0, column: 0, severity: .error, message: message)])
    }

    private static func octal(_ mode: mode_t) -> String {
        String(mode, radix: 8)
    }
}
