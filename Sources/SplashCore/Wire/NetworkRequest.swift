import FoundationEssentials

/// What the display process asks of the network process, one JSON object per line on
/// their Unix socket (`{"id": 1, "kind": "sync", "now": …}`). Each request carries an id
/// its answer repeats.
public struct NetworkRequest: Codable, Equatable, Sendable {
    /// The kinds of request, as the wire names them.
    public enum Kind: String, Codable, Sendable {
        case sync
        case poem
        case poemPicture = "poem_picture"
        case report
    }

    /// What is asked, with what that kind of request needs.
    public enum Ask: Equatable, Sendable {
        /// Sync the feed at `now` (the kiosk's clock; nil: the network process's own).
        /// Answered with the report.
        case sync(now: Date?)
        /// Fetch a poem; answered with it.
        case poem
        /// Fetch the poem picture at `url` into the image cache; answered with its path (or,
        /// with no URL or another than the configured one, with why not).
        case poemPicture(url: String?)
        /// Shows have ended: send what the ledger has not reported yet (`report-url`).
        /// Answered at once; the sending goes on in the network process.
        case report

        /// Its kind on the wire.
        public var kind: Kind {
            switch self {
            case .sync: return .sync
            case .poem: return .poem
            case .poemPicture: return .poemPicture
            case .report: return .report
            }
        }
    }

    /// Chosen by the display process; the answer repeats it.
    public var id: Int
    /// What is asked.
    public var ask: Ask

    /// Request `id`, asking `ask`.
    public init(id: Int, ask: Ask) {
        self.id = id
        self.ask = ask
    }

    private enum Keys: String, CodingKey {
        case id, kind, now, url
    }

    /// A request from its line.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        id = try c.decode(Int.self, forKey: .id)
        switch try c.decode(Kind.self, forKey: .kind) {
        case .sync: ask = .sync(now: try c.decodeIfPresent(Date.self, forKey: .now))
        case .poem: ask = .poem
        case .poemPicture: ask = .poemPicture(url: try c.decodeIfPresent(String.self, forKey: .url))
        case .report: ask = .report
        }
    }

    /// The request as its line says it.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(id, forKey: .id)
        try c.encode(ask.kind, forKey: .kind)
        switch ask {
        case .sync(let now): try c.encodeIfPresent(now, forKey: .now)
        case .poemPicture(let url): try c.encodeIfPresent(url, forKey: .url)
        case .poem, .report: break
        }
    }
}
