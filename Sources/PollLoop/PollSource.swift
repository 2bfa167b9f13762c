import TouchGestures

/// Something the event loop waits on: descriptors to read and a deadline.
public protocol PollSource: AnyObject {
    /// Descriptors to poll for reading, asked before every wait.
    var pollDescriptors: [Int32] { get }
    /// One of ``pollDescriptors`` is readable.
    func handleReadable(_ fd: Int32)
    /// Descriptors to poll for writing, asked before every wait: only those with bytes
    /// waiting to go out, so an idle source causes no wake-up.
    var writeDescriptors: [Int32] { get }
    /// One of ``writeDescriptors`` can take more bytes, or its reader went away.
    func handleWritable(_ fd: Int32)
    /// The next moment the source wants to run without input, if any.
    var nextDeadline: Timestamp? { get }
    /// The clock passed ``nextDeadline``.
    func handleDeadlines()
    /// Why the source cannot go on (its descriptor broke), once it cannot; nil while it
    /// works. The loop checks it after each call and stops with this as its failure.
    var failure: String? { get }
}

extension PollSource {
    /// Sources that cannot break never fail.
    public var failure: String? { nil }
    /// Most sources only read.
    public var writeDescriptors: [Int32] { [] }
    public func handleWritable(_ fd: Int32) {}
}
