import TouchGestures

/// A device's size as the user states it: a glob over libinput's device name, and the
/// width and height of its surface in millimetres.
///
/// For touchscreens that report no resolution (their size is otherwise assumed), or
/// report a wrong one. A stated size wins over everything the system says. It lives
/// beside the globs, outside the engine (no recognizer reads it), so the command line,
/// rule files and the input adapter share one form: `GLOB=WIDTHxHEIGHT`.
public struct StatedDeviceSize: Hashable, Sendable, CustomStringConvertible {
    /// A shell-style glob over the device name: `*` any run of characters, `?` one
    /// character, anything else itself (case-sensitive), e.g. `ILITEK*`.
    public var namePattern: String
    /// The surface's width and height in millimetres, both above 0.
    public var size: Size

    /// A stated size; `size` must be above 0 in both directions.
    public init(namePattern: String, size: Size) {
        self.namePattern = namePattern
        self.size = size
    }

    /// Parses `GLOB=WIDTHxHEIGHT` (millimetres), e.g. `ILITEK*=197x115` or
    /// `touchrig Panel=196.6x115.2`, as given on the command line.
    public init(parsing text: String) throws(StatedDeviceSizeError) {
        guard let equals = text.lastIndex(of: "=") else { throw .notAnAssignment(text) }
        let pattern = String(text[..<equals])
        let dimensions = text[text.index(after: equals)...].split(separator: "x", omittingEmptySubsequences: false)
        guard !pattern.isEmpty else { throw .noPattern(text) }
        guard pattern.count <= maximumGlobLength else { throw .patternTooLong(pattern.count) }
        guard dimensions.count == 2, let width = Double(dimensions[0]), let height = Double(dimensions[1]) else {
            throw .notASize(text, String(text[text.index(after: equals)...]))
        }
        guard width > 0, height > 0, width.isFinite, height.isFinite else {
            throw .notPositive(text, width: width, height: height)
        }
        self.init(namePattern: pattern, size: Size(width: width, height: height))
    }

    /// Whether `name` matches ``namePattern``.
    public func matches(_ name: String) -> Bool {
        globMatches(namePattern, name)
    }

    /// The first of `stated` whose pattern matches `name`.
    public static func first(in stated: [StatedDeviceSize], matching name: String) -> StatedDeviceSize? {
        stated.first { $0.matches(name) }
    }

    /// `GLOB=WIDTHxHEIGHT`, the form ``init(parsing:)`` reads.
    public var description: String {
        "\(namePattern)=\(fixedDecimals(size.width, 1))x\(fixedDecimals(size.height, 1))"
    }
}

/// Why a stated device size could not be read; each names the text and the form expected.
public enum StatedDeviceSizeError: Error, Sendable, Equatable, CustomStringConvertible {
    case notAnAssignment(String)
    case noPattern(String)
    case notASize(String, String)
    case notPositive(String, width: Double, height: Double)
    /// The name pattern is longer than ``maximumGlobLength`` (its length).
    case patternTooLong(Int)

    public var description: String {
        let form = "expected NAME-GLOB=WIDTHxHEIGHT in millimetres, e.g. 'ILITEK*=197x115'"
        switch self {
        case let .notAnAssignment(text):
            return "invalid device size '\(text)': no '='; \(form)"
        case let .noPattern(text):
            return "invalid device size '\(text)': no device name before '='; \(form)"
        case let .notASize(text, size):
            return "invalid device size '\(text)': '\(size)' is not WIDTHxHEIGHT; \(form)"
        case let .patternTooLong(length):
            return "invalid device size: the name pattern is \(length) characters long; a glob may have at most \(maximumGlobLength)"
        case let .notPositive(text, width, height):
            return "invalid device size '\(text)': width \(fixedDecimals(width, 1)) and height \(fixedDecimals(height, 1)) must both be above 0 mm; \(form)"
        }
    }
}
