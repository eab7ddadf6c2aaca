/// The slowest a body may come in: at least `bytes` in every window of `seconds`, counted
/// from its first bytes, so that a server dripping a byte now and then cannot hold a fetch
/// for its whole time. Time (monotonic seconds) is passed in.
public struct TransferPace: Equatable, Sendable {
    /// Bytes that must come in each window.
    public let bytes: Int
    /// The window, in seconds.
    public let seconds: Seconds
    /// When the current window began, and the bytes received in it (nil before the first).
    public private(set) var windowStart: Seconds?
    public private(set) var windowBytes = 0

    /// At least `bytes` in every `seconds`.
    public init(bytes: Int, seconds: Seconds) {
        self.bytes = bytes
        self.seconds = seconds
    }

    /// `count` bytes came in at `now`. Returns the bytes of a window that ended short of
    /// `bytes` (the fetch is stopped), nil while the body keeps pace.
    public mutating func received(_ count: Int, at now: Seconds) -> Int? {
        guard let start = windowStart else {
            windowStart = now
            windowBytes = count
            return nil
        }
        windowBytes += count
        guard now - start >= seconds else { return nil }
        guard windowBytes >= bytes else { return windowBytes }
        windowStart = now
        windowBytes = 0
        return nil
    }
}
