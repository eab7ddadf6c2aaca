import Foundation

/// A decoded campaign feed.
///
/// Three shapes are accepted: one campaign object (`{"picUrl", "showTime"}`), an array of
/// them, or `{"campaigns": [...], "message": "..."}`. An invalid entry is skipped with a
/// warning naming it and the field; a document with no valid entry (but not an empty
/// list, which retires everything) is an error.
public struct FeedDocument: Equatable, Sendable {
    public var campaigns: [Campaign]
    /// Default detail text for campaigns without their own.
    public var message: String?
    /// One line per skipped entry.
    public var warnings: [String]

    public init(campaigns: [Campaign], message: String? = nil, warnings: [String] = []) {
        self.campaigns = campaigns
        self.message = message
        self.warnings = warnings
    }

    /// Decodes `data` fetched from `feedURL` (used to resolve relative `picUrl`s).
    /// `file://` pictures are accepted only from a feed that is itself a local file: a
    /// feed from the network never points the kiosk at its own disk.
    public static func decode(_ data: Data, from feedURL: URL) throws -> FeedDocument {
        let allowFileURLs = feedURL.scheme?.lowercased() == "file"
        let root: Root
        do {
            root = try JSONDecoder().decode(Root.self, from: data)
        } catch {
            throw FeedError.notJSON(Self.describeParseError(data))
        }
        var message: String?
        let entries: [Entry]
        switch root {
        case .list(let list):
            entries = list
        case let .feed(list, text):
            entries = list
            message = text
        case .single(let entry):
            entries = [entry]
        case .campaignsNotAList(let kind):
            throw FeedError.wrongShape("\"campaigns\" that is \(kind), not a list")
        case .neither(let kind):
            throw FeedError.wrongShape(kind)
        }

        var campaigns: [Campaign] = []
        var warnings: [String] = []
        var seen = Set<String>()
        // Feeds often name a few pictures many times: each is resolved once.
        var resolved: [String: URL?] = [:]
        let resolve = { (picture: String) -> URL? in
            if let known = resolved[picture] { return known }
            let url = URL(string: picture, relativeTo: feedURL)?.absoluteURL
            resolved[picture] = url
            return url
        }
        for (position, entry) in entries.enumerated() {
            do {
                let campaign = try decodeCampaign(entry, position: position, resolve: resolve, allowFileURLs: allowFileURLs)
                guard seen.insert(campaign.id).inserted else {
                    throw EntryProblem(field: "id", problem: "repeats \"\(campaign.id)\" of an earlier entry")
                }
                campaigns.append(campaign)
            } catch let problem as EntryProblem {
                warnings.append("campaign #\(position + 1)\(entry.label): \(problem.field) \(problem.problem); skipped")
            }
        }
        if campaigns.isEmpty && !entries.isEmpty {
            throw FeedError.noValidCampaigns(warnings)
        }
        return FeedDocument(campaigns: campaigns, message: message, warnings: warnings)
    }

    private struct EntryProblem: Error {
        var field: String
        var problem: String
    }

    /// The document's top level, in one of the accepted shapes or named for the error.
    private enum Root: Decodable {
        case list([Entry])
        case feed([Entry], message: String?)
        case single(Entry)
        case campaignsNotAList(String)
        case neither(String)

        private enum Key: String, CodingKey { case campaigns, message }

        init(from decoder: Decoder) throws {
            if var list = try? decoder.unkeyedContainer() {
                self = .list(try Self.entries(&list))
            } else if let object = try? decoder.container(keyedBy: Key.self) {
                if !object.contains(.campaigns) {
                    self = .single(try Entry(from: decoder))
                } else if var list = try? object.nestedUnkeyedContainer(forKey: .campaigns) {
                    let text = (try? object.decodeIfPresent(String.self, forKey: .message)) ?? nil
                    self = .feed(try Self.entries(&list), message: text?.isEmpty == false ? text : nil)
                } else {
                    self = .campaignsNotAList(try JSONKind.of(object, .campaigns))
                }
            } else {
                self = .neither(try JSONKind(from: decoder).description)
            }
        }

        private static func entries(_ list: inout UnkeyedDecodingContainer) throws -> [Entry] {
            var entries: [Entry] = []
            entries.reserveCapacity(list.count ?? 0)
            while !list.isAtEnd { entries.append(try list.decode(Entry.self)) }
            return entries
        }
    }

    /// One entry of the list with its fields as found; checked by `decodeCampaign`. A field
    /// of the wrong type is noted, not thrown: a bad entry is a warning, not the end of the
    /// feed. Only data that is not JSON at all (text that is not UTF-8, a raw control
    /// character, a number out of range) throws, which refuses the whole document.
    private struct Entry: Decodable {
        enum Field<T> {
            case missing
            case null
            case value(T)
            /// Present with another type: what it is, for the message.
            case wrong(String)
        }

        private enum Key: String, CodingKey { case id, picUrl, showTime, title, detail, startAt, endAt, updatedAt }

        /// Set when the entry is not an object: what it is instead.
        var notAnObject: String?
        var id: Field<String> = .missing
        var idNumber: Field<Double> = .missing
        var picUrl: Field<String> = .missing
        var showTime: Field<Double> = .missing
        var title: Field<String> = .missing
        var detail: Field<String> = .missing
        var startAt: Field<String> = .missing
        var endAt: Field<String> = .missing
        var updatedAt: Field<String> = .missing

        init(from decoder: Decoder) throws {
            let object: KeyedDecodingContainer<Key>
            do {
                object = try decoder.container(keyedBy: Key.self)
            } catch DecodingError.typeMismatch, DecodingError.valueNotFound {
                // Another kind of value (valueNotFound: null) where an object should be.
                notAnObject = try JSONKind(from: decoder).description
                return
            }
            func field<T: Decodable>(_ key: Key, _: T.Type) throws -> Field<T> {
                guard object.contains(key) else { return .missing }
                if try object.decodeNil(forKey: key) { return .null }
                do {
                    return .value(try object.decode(T.self, forKey: key))
                } catch DecodingError.typeMismatch {
                    return .wrong(try JSONKind.of(object, key))
                }
            }
            id = try field(.id, String.self)
            if case .wrong = id { idNumber = try field(.id, Double.self) }
            picUrl = try field(.picUrl, String.self)
            showTime = try field(.showTime, Double.self)
            title = try field(.title, String.self)
            detail = try field(.detail, String.self)
            startAt = try field(.startAt, String.self)
            endAt = try field(.endAt, String.self)
            updatedAt = try field(.updatedAt, String.self)
        }

        /// How warnings name the entry: its id, else its picture.
        var label: String {
            if case .value(let s) = id, !s.isEmpty { return " (\"\(clip(s))\")" }
            if case .value(let s) = picUrl, !s.isEmpty { return " (\"\(clip(s))\")" }
            return ""
        }
    }

    /// What a JSON value is, for messages about values of the wrong type.
    private enum JSONKind: Decodable, CustomStringConvertible {
        case null, bool(Bool), number(Double), string, list, object

        init(from decoder: Decoder) throws {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .null
            } else if let b = try Self.ifOfType({ try value.decode(Bool.self) }) {
                self = .bool(b)
            } else if let d = try Self.ifOfType({ try value.decode(Double.self) }) {
                self = .number(d)
            } else if try Self.ifOfType({ try value.decode(String.self) }) != nil {
                self = .string
            } else if try Self.ifOfType({ try decoder.unkeyedContainer() }) != nil {
                self = .list
            } else {
                self = .object
            }
        }

        /// The value when it has that type, nil when it has another; data that is not JSON throws.
        private static func ifOfType<T>(_ decode: () throws -> T) throws -> T? {
            do {
                return try decode()
            } catch DecodingError.typeMismatch {
                return nil
            }
        }

        static func of<K>(_ object: KeyedDecodingContainer<K>, _ key: K) throws -> String {
            try object.decode(JSONKind.self, forKey: key).description
        }

        var description: String {
            switch self {
            case .null: "null"
            case .bool(let b): b ? "true" : "false"
            case .number(let d): FeedDocument.describe(d)
            case .string: "a string"
            case .list: "a list"
            case .object: "an object"
            }
        }
    }

    private static func decodeCampaign(_ entry: Entry, position: Int, resolve: (String) -> URL?,
                                       allowFileURLs: Bool) throws -> Campaign {
        if let kind = entry.notAnObject {
            throw EntryProblem(field: "entry", problem: "is \(kind), not an object")
        }
        let picString: String
        switch entry.picUrl {
        case .missing: throw EntryProblem(field: "picUrl", problem: "is missing")
        case .value(let s) where !s.isEmpty: picString = s
        default: throw EntryProblem(field: "picUrl", problem: "must be a URL string, got \(kind(entry.picUrl))")
        }
        guard let picURL = resolve(picString),
              let scheme = picURL.scheme?.lowercased(), ["http", "https", "file"].contains(scheme)
        else {
            throw EntryProblem(field: "picUrl", problem: "must be an http, https or file URL, got \"\(picString)\"")
        }
        // The scheme is compared in lower case: "FILE:///etc/passwd" is a local file too.
        if scheme == "file", !allowFileURLs {
            throw EntryProblem(field: "picUrl", problem: "is a local file, which only a local feed may name")
        }
        let showTime: Int
        switch entry.showTime {
        case .missing: throw EntryProblem(field: "showTime", problem: "is missing")
        case .value(let d) where wholeNumber(d).map({ $0 >= 0 }) == true: showTime = wholeNumber(d)!
        default: throw EntryProblem(field: "showTime", problem: "must be a whole number ≥ 0, got \(kind(entry.showTime))")
        }
        var id = picURL.absoluteString
        switch (entry.id, entry.idNumber) {
        case (.missing, _), (.null, _): break
        case (.value(let s), _) where !s.isEmpty: id = s
        case (.wrong, .value(let d)) where wholeNumber(d) != nil: id = String(wholeNumber(d)!)
        default: throw EntryProblem(field: "id", problem: "must be a non-empty string, got \(kind(entry.id))")
        }
        return Campaign(
            id: id, picURL: picURL, showTime: showTime,
            title: try optionalText(entry.title, "title"),
            detail: try optionalText(entry.detail, "detail"),
            startAt: try optionalDate(entry.startAt, "startAt"),
            endAt: try optionalDate(entry.endAt, "endAt"),
            updatedAt: try optionalDate(entry.updatedAt, "updatedAt"),
            position: position
        )
    }

    /// What a field holds, for a message.
    private static func kind<T>(_ field: Entry.Field<T>) -> String {
        switch field {
        case .missing: "nothing"
        case .null: "null"
        case .wrong(let kind): kind
        case .value(let v as Double): describe(v)
        case .value: "a string"
        }
    }

    private static func optionalText(_ field: Entry.Field<String>, _ key: String) throws -> String? {
        switch field {
        case .missing, .null: return nil
        case .value(let s): return s.isEmpty ? nil : s
        case .wrong(let kind): throw EntryProblem(field: key, problem: "must be a string, got \(kind)")
        }
    }

    private static func optionalDate(_ field: Entry.Field<String>, _ key: String) throws -> Date? {
        switch field {
        case .missing, .null: return nil
        case .value(let s):
            if let date = ISO8601.date(from: s) { return date }
        case .wrong: break
        }
        throw EntryProblem(field: key, problem: "must be an ISO 8601 date like 2026-01-31T09:00:00+08:00, got \(kind(field))")
    }

    /// An integer from a JSON number, refusing fractions and values out of range.
    static func wholeNumber(_ d: Double) -> Int? {
        guard d.isFinite, d == d.rounded(), abs(d) < 1e15 else { return nil }
        return Int(d)
    }

    /// A number as a message shows it: whole numbers without a fraction.
    static func describe(_ d: Double) -> String {
        wholeNumber(d).map(String.init) ?? String(d)
    }

    private static func clip(_ s: String) -> String {
        s.count > 80 ? String(s.prefix(77)) + "..." : s
    }

    /// JSONDecoder says only that the data is not JSON; JSONSerialization says where.
    private static func describeParseError(_ data: Data) -> String {
        var text = "the data is not valid JSON"
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
        }
        return text.count > 160 ? String(text.prefix(157)) + "..." : text
    }
}
