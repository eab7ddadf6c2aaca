import FoundationEssentials
import Glibc

/// One side of a stream socket that speaks in units (`LineBuffer`): reads the next one
/// with a size limit and a deadline on the monotonic clock — the whole unit within the
/// time, so a peer sending a byte now and then does not hold it — and writes whole
/// buffers, however the kernel splits them. The channel does not own its descriptor.
public final class LineChannel {
    /// How a read ended.
    public enum Outcome: Equatable {
        /// A whole unit, its terminator left out.
        case line(Data)
        /// The peer closed; `partial`: in the middle of a unit.
        case closed(partial: Bool)
        /// More than the limit came without a terminator.
        case tooLong
        /// The deadline passed; `partial`: part of a unit had come.
        case timedOut(partial: Bool)
        /// The read failed (`errno`'s text).
        case failed(String)
    }

    /// The descriptor read and written.
    public let fd: Int32
    private var buffer: LineBuffer
    private let clock: () -> TimeInterval

    /// A channel on `fd` for units ending with `terminator`, each at most `limit` bytes;
    /// deadlines are read on `clock` (the monotonic clock unless a test moves its own).
    public init(fd: Int32, terminator: [UInt8] = [0x0A], limit: Int,
                clock: @escaping () -> TimeInterval = MonotonicClock.seconds) {
        self.fd = fd
        buffer = LineBuffer(terminator: terminator, limit: limit)
        self.clock = clock
    }

    /// Reads until a whole unit has come, the peer closes, the limit is passed or
    /// `deadline` (a time on the channel's clock; nil: none) passes.
    public func next(by deadline: TimeInterval? = nil) -> Outcome {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            if let line = buffer.next() { return .line(line) }
            if buffer.isOverLimit { return .tooLong }
            if let deadline {
                switch waitReadable(by: deadline) {
                case .readable: break
                case .deadlinePassed: return .timedOut(partial: !buffer.rest.isEmpty)
                case .failed(let reason): return .failed(reason)
                }
            }
            let n = recv(fd, &chunk, chunk.count, 0)
            if n < 0, errno == EINTR { continue }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK { return .timedOut(partial: !buffer.rest.isEmpty) }
            if n < 0 { return .failed(String(cString: strerror(errno))) }
            if n == 0 { return .closed(partial: !buffer.rest.isEmpty) }
            buffer.append(chunk[0..<n])
        }
    }

    /// Reads as `next(by:)` does, for at most `seconds` from now on the channel's clock.
    public func next(within seconds: TimeInterval) -> Outcome {
        next(by: deadline(after: seconds))
    }

    /// The time on the channel's clock `seconds` from now: a deadline for several reads.
    public func deadline(after seconds: TimeInterval) -> TimeInterval {
        clock() + seconds
    }

    /// Reads exactly `count` bytes more (what a unit announced), those already buffered
    /// first; nil when the peer closes or `deadline` passes first. What came after them is
    /// dropped: the answer it reads is the connection's last.
    public func bytes(_ count: Int, by deadline: TimeInterval? = nil) -> Data? {
        var have = buffer.takeRest()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while have.count < count {
            if let deadline, waitReadable(by: deadline) != .readable { return nil }
            let n = recv(fd, &chunk, min(chunk.count, count - have.count), 0)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            have.append(contentsOf: chunk[0..<n])
        }
        return have.prefix(count)
    }

    /// What waiting for the peer came to.
    private enum Wait: Equatable {
        case readable
        case deadlinePassed
        /// poll(2) failed, and why.
        case failed(String)
    }

    /// Waits until the descriptor is readable or `deadline` (on the channel's clock) has
    /// passed; poll's own timer is not the deadline, so the clock is read again each time.
    private func waitReadable(by deadline: TimeInterval) -> Wait {
        while true {
            let left = deadline - clock()
            guard left > 0 else { return .deadlinePassed }
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, Int32(min(max(1, left * 1000), 3_600_000)))
            if polled > 0 { return .readable }
            if polled < 0, errno != EINTR { return .failed(String(cString: strerror(errno))) }
        }
    }

    /// Bytes already read from the descriptor some other way, taken as the start of what
    /// comes next.
    public func prepend(_ bytes: [UInt8]) { buffer.append(bytes) }

    /// Hands over what came after the last unit read (the start of a body), leaving none.
    public func takeRest() -> Data { buffer.takeRest() }

    /// Writes all of `bytes`; false when the peer has gone first.
    @discardableResult
    public func send<Bytes: DataProtocol>(_ bytes: Bytes) -> Bool { Self.sendAll(bytes, on: fd) }

    /// Writes all of `bytes` to `fd` (a short write is followed by the rest), never raising
    /// SIGPIPE; false when the peer has gone first.
    @discardableResult
    public static func sendAll<Bytes: DataProtocol>(_ bytes: Bytes, on fd: Int32) -> Bool {
        let data = Data(bytes)
        return data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
    }
}
