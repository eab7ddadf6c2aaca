import FoundationEssentials

/// The network process's answer to one `NetworkRequest`, one JSON object per line
/// (`{"id": 1, "report": …}`, `{"id": 2, "error": "…"}`).
public struct NetworkAnswer: Codable, Equatable, Sendable {
    /// What came of a request.
    public enum Outcome: Equatable, Sendable {
        /// A sync's report (`sync`).
        case synced(SyncReport)
        /// The poem fetched (`poem`).
        case poem(Poem)
        /// The poem picture, cached at `path` (`poemPicture`).
        case picture(path: String)
        /// Taken (`report`: the sending goes on in the network process).
        case taken
        /// It failed, and why (a poem or picture that could not be fetched, a queue full, a
        /// request refused: with id 0, the connection ends).
        case failed(String)
        /// Not run: nobody waited for it any more (the display had gone or given up). On the
        /// wire it is the error "abandoned", as it has always been.
        case abandoned

        /// Why it failed, when it did (an abandoned request: "abandoned").
        public var failure: String? {
            switch self {
            case .failed(let why): return why
            case .abandoned: return NetworkAnswer.abandonedWord
            default: return nil
            }
        }
    }

    /// The error an abandoned request is answered with.
    static let abandonedWord = "abandoned"

    /// The id of the request answered (0: the connection's, refusing what was sent).
    public var id: Int
    /// What came of it.
    public var outcome: Outcome

    /// The answer to request `id`.
    public init(id: Int, _ outcome: Outcome) {
        self.id = id
        self.outcome = outcome
    }

    private enum Keys: String, CodingKey {
        case id, report, poem, path, error, taken
    }

    /// An answer from its line: the one field it carries says what came of the request.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        id = try c.decode(Int.self, forKey: .id)
        if let report = try c.decodeIfPresent(SyncReport.self, forKey: .report) {
            outcome = .synced(report)
        } else if let poem = try c.decodeIfPresent(Poem.self, forKey: .poem) {
            outcome = .poem(poem)
        } else if let path = try c.decodeIfPresent(String.self, forKey: .path) {
            outcome = .picture(path: path)
        } else if let error = try c.decodeIfPresent(String.self, forKey: .error) {
            outcome = error == Self.abandonedWord ? .abandoned : .failed(error)
        } else if try c.decodeIfPresent(Bool.self, forKey: .taken) == true {
            outcome = .taken
        } else {
            // Every answer names what came of its request: one that names nothing is not taken.
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: [],
                                                                    debugDescription: "an answer to request \(id) that says nothing of it"))
        }
    }

    /// The answer as its line says it.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(id, forKey: .id)
        switch outcome {
        case .synced(let report): try c.encode(report, forKey: .report)
        case .poem(let poem): try c.encode(poem, forKey: .poem)
        case .picture(let path): try c.encode(path, forKey: .path)
        case .taken: try c.encode(true, forKey: .taken)
        case .failed(let why): try c.encode(why, forKey: .error)
        case .abandoned: try c.encode(Self.abandonedWord, forKey: .error)
        }
    }
}
