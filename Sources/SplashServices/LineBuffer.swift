import FoundationEssentials
import Glibc

/// Bytes from a stream cut into units that end with a terminator (a newline for the JSON
/// lines of the link and the control socket, a blank line for an HTTP head), with a limit
/// on what may wait without one. Pure: it reads nothing itself (`LineChannel` does).
public struct LineBuffer: Sendable {
    /// What ends a unit.
    public let terminator: [UInt8]
    /// The most bytes a unit may hold, its terminator left out.
    public let limit: Int
    /// What came after the last whole unit.
    public private(set) var rest = Data()

    /// A buffer for units ending with `terminator` of at most `limit` bytes.
    public init(terminator: [UInt8] = [0x0A], limit: Int) {
        self.terminator = terminator
        self.limit = limit
    }

    /// Takes more bytes.
    public mutating func append<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        rest.append(contentsOf: bytes)
    }

    /// The next whole unit, without its terminator; nil until one has come.
    public mutating func next() -> Data? {
        guard let end = terminatorStart() else { return nil }
        let start = rest.startIndex
        let unit = Data(rest[start..<start + end])
        rest = Data(rest[(start + end + terminator.count)...])
        searched = 0
        return unit
    }

    /// What waits for its terminator is longer than a unit may be (a peer that floods);
    /// asked once `next()` has returned nil.
    public var isOverLimit: Bool { rest.count > limit && searched >= rest.count - (terminator.count - 1) }

    /// Bytes at the start of `rest` known to hold no terminator's start: each byte is
    /// looked at once, however slowly a long unit comes.
    private var searched = 0

    /// Where the first terminator in `rest` starts, looking only at bytes not looked at yet.
    private mutating func terminatorStart() -> Int? {
        let pattern = terminator
        let from = searched
        let found: Int? = rest.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return nil }
            var i = from
            while raw.count - i >= pattern.count {
                guard let hit = memchr(base + i, Int32(pattern[0]), raw.count - i - pattern.count + 1) else { return nil }
                let at = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + at, pattern, pattern.count) == 0 { return at }
                i = at + 1
            }
            return nil
        }
        if found == nil { searched = max(0, rest.count - (pattern.count - 1)) }
        return found
    }

    /// Hands over what came after the last unit (the start of a body), leaving none.
    public mutating func takeRest() -> Data {
        defer {
            rest = Data()
            searched = 0
        }
        return rest
    }
}
