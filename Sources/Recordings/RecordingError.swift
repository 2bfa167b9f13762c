/// Why a recording could not be read or written. The descriptions are compiler-like:
/// `rec.tgrec:12: error: pinch scale 'inf' is out of range; ...`.
public enum RecordingError: Error, Equatable, CustomStringConvertible {
    /// The file exists and `--force` was not given.
    case exists(String)
    /// Creating or writing the file failed; the second value is strerror's text.
    case cannotWrite(String, String)
    /// Opening or reading the file failed; the second value is strerror's text.
    case cannotRead(String, String)
    /// A bad line: the file, its 1-based line number and what is wrong with it.
    case format(String, Int, String)

    public var description: String {
        switch self {
        case let .exists(path): "\(path): error: the file exists; pass --force to replace it"
        case let .cannotWrite(path, why): "\(path): error: cannot write the recording: \(why)"
        case let .cannotRead(path, why): "\(path): error: cannot read the recording: \(why)"
        case let .format(path, line, why): "\(path):\(line): error: \(why)"
        }
    }
}
