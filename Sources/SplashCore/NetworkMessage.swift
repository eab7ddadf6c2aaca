import Foundation

/// What the display process asks of the network process, one JSON object per line on
/// their Unix socket. Each request carries an id its answer repeats.
public struct NetworkRequest: Codable, Equatable, Sendable {
    /// What a request asks for.
    public enum Kind: String, Codable, Sendable {
        /// Sync the feed at `now` (the kiosk's clock); answered with `report`.
        case sync
        /// Fetch a poem; answered with `poem`.
        case poem
        /// Fetch the poem picture at `url` into the image cache; answered with `path`.
        case poemPicture = "poem_picture"
        /// Shows have ended: send what the ledger has not reported yet (`report-url`).
        /// Answered at once; the sending goes on in the network process.
        case report
    }

    /// Chosen by the display process; the answer repeats it.
    public var id: Int
    /// What is asked.
    public var kind: Kind
    /// The kiosk's clock, for `sync`.
    public var now: Date?
    /// The picture to fetch, for `poemPicture`.
    public var url: String?

    /// A request; `now` and `url` are given only for the kinds that use them.
    public init(id: Int, kind: Kind, now: Date? = nil, url: String? = nil) {
        self.id = id
        self.kind = kind
        self.now = now
        self.url = url
    }
}

/// The network process's answer to one `NetworkRequest`.
public struct NetworkAnswer: Codable, Equatable, Sendable {
    /// The id of the request answered.
    public var id: Int
    /// A sync's outcome.
    public var report: SyncReport?
    /// The poem fetched.
    public var poem: Poem?
    /// The cached poem picture.
    public var path: String?
    /// Why the request failed (a poem or picture that could not be fetched).
    public var error: String?

    /// The answer to request `id`, with what its kind of request is answered with.
    public init(id: Int, report: SyncReport? = nil, poem: Poem? = nil, path: String? = nil, error: String? = nil) {
        self.id = id
        self.report = report
        self.poem = poem
        self.path = path
        self.error = error
    }
}

/// Encoding and decoding of the lines on the socket between the two processes.
public enum NetworkWire {
    /// The longest line either side accepts; a longer one ends the connection.
    public static let lineLimit = 4 << 20
    /// A sync report carries at most this many warnings and picture errors each over the
    /// socket; the rest are counted in one last line (`splashboard sync` prints them all).
    public static let reportLines = 200

    /// One message as a line, newline included.
    public static func line<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        var data = (try? encoder.encode(value)) ?? Data("{}".utf8)  // plain structs: cannot fail
        data.append(0x0A)
        return data
    }

    /// One message from a line (without its newline).
    public static func decode<T: Decodable>(_ type: T.Type, from line: Data) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return try decoder.decode(type, from: line)
    }

    /// The longest line of a report kept by the display.
    public static let reportLineLength = 1000

    /// `report` as the display takes it from the network process, which it trusts no more
    /// than the network: counts not below 0, at most `reportLines` lines of at most
    /// `reportLineLength` characters each, an error of at most that length.
    public static func checked(_ report: SyncReport) -> SyncReport {
        var report = trimmed(report)
        func cut(_ text: String) -> String { text.count <= reportLineLength ? text : String(text.prefix(reportLineLength)) + "…" }
        report.campaigns = max(0, report.campaigns)
        report.warnings = report.warnings.prefix(reportLines + 1).map(cut)
        report.pictureErrors = report.pictureErrors.prefix(reportLines + 1).map(cut)
        report.error = report.error.map(cut)
        if let ms = report.milliseconds, !(ms.isFinite && ms >= 0) { report.milliseconds = nil }
        return report
    }

    /// `report` with its warnings and picture errors cut to `reportLines` each.
    public static func trimmed(_ report: SyncReport) -> SyncReport {
        func cut(_ lines: [String], _ what: String) -> [String] {
            guard lines.count > reportLines else { return lines }
            return Array(lines.prefix(reportLines)) + ["… and \(lines.count - reportLines) more \(what)"]
        }
        var report = report
        report.warnings = cut(report.warnings, "warnings")
        report.pictureErrors = cut(report.pictureErrors, "picture errors")
        return report
    }
}
