/// The tunables of the daemon's process as a whole, with their reasons.
public enum LoopDefaults {
    /// Blocks of this many bytes or more are mapped on their own and given back when freed
    /// (``mapLargeBlocks()``): no message the daemon keeps is near this big, while a peer's
    /// burst (a huge D-Bus signal, a flood of titles) is, and must not stay in the heap.
    public static let largeBlock = 1 << 20
}
