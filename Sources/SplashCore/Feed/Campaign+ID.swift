import FoundationEssentials

extension Campaign {
    /// A campaign's id: the feed's `id`, or its `picUrl` when it has none. It is the
    /// ledger's key (shows and limits are counted by it) and names the campaign in events,
    /// reports and metrics, where it is the plain string. A type of its own, so an id is
    /// never taken for a title, a path or a cache key.
    public struct ID: Hashable, Comparable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The id as the feed wrote it.
        public var rawValue: String

        /// The id `rawValue`.
        public init(_ rawValue: String) {
            self.rawValue = rawValue
        }

        public init(stringLiteral value: String) {
            rawValue = value
        }

        /// Encoded as the plain string.
        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(String.self)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        public var description: String { rawValue }

        public static func < (lhs: ID, rhs: ID) -> Bool { lhs.rawValue < rhs.rawValue }
    }
}
