/// When a file that changes often is written again: at once the first time, then no
/// sooner than `interval` seconds after the last write, on a clock the caller passes in
/// (the monotonic one: a wall clock that jumps must neither hold the file back nor let it
/// be written at every change). Pure; `MetricsFile` follows it.
public struct WritePacer: Equatable, Sendable {
    /// Seconds between two writes, at the least.
    public let interval: Seconds
    /// When the file was last written; nil before the first write.
    public private(set) var lastWrite: Seconds?

    /// A pacer of writes at most every `interval` seconds.
    public init(interval: Seconds) {
        self.interval = interval
    }

    /// How long a change made at `now` waits before it may be written (0: at once).
    public func wait(at now: Seconds) -> Seconds {
        guard let lastWrite else { return 0 }
        return max(0, lastWrite + interval - now)
    }

    /// The file was written at `now`.
    public mutating func wrote(at now: Seconds) {
        lastWrite = now
    }
}
