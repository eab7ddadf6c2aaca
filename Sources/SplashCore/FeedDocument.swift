import Foundation

/// A decoded campaign feed.
///
/// Three shapes are accepted: one campaign object (`{"picUrl", "showTime"}`), an array of
/// them, or `{"campaigns": [...], "message": "..."}`. An invalid entry is skipped with a
/// warning naming it and the field; a document with no valid entry (but not an empty
/// list, which retires everything) is an error.
public struct FeedDocument: Equatable, Sendable {
    /// The valid campaigns, in feed order.
    public var campaigns: [Campaign]
    /// Default detail text for campaigns without their own.
    public var message: String?
    /// One line per skipped entry or left-out field, each starting with its place in the
    /// document (`campaigns[3].showTime: …`).
    public var warnings: [String]
    /// Which of the three shapes the document has, for naming places in it.
    public var shape: Shape = .object

    /// The three shapes a feed may have.
    public enum Shape: Equatable, Sendable {
        /// One campaign object.
        case campaign
        /// A list of campaigns.
        case list
        /// `{"campaigns": [...]}`.
        case object
    }

    /// A document of the object shape with these campaigns.
    public init(campaigns: [Campaign], message: String? = nil, warnings: [String] = []) {
        self.campaigns = campaigns
        self.message = message
        self.warnings = warnings
    }

    /// Where the entry at `position` is in the document: `campaigns[3]`, `[3]`, or
    /// `(document)` for the one-campaign shape.
    public func place(ofEntry position: Int) -> String {
        Self.place(ofEntry: position, shape: shape)
    }

    static func place(ofEntry position: Int, shape: Shape) -> String {
        switch shape {
        case .campaign: return "(document)"
        case .list: return "[\(position)]"
        case .object: return "campaigns[\(position)]"
        }
    }

    /// Where `field` of the entry at `position` is: `campaigns[3].picUrl`, or `picUrl`.
    public func place(of field: String, inEntry position: Int) -> String {
        Self.place(of: field, inEntry: position, shape: shape)
    }

    static func place(of field: String, inEntry position: Int, shape: Shape) -> String {
        shape == .campaign ? field : "\(place(ofEntry: position, shape: shape)).\(field)"
    }

    /// The fields a campaign may have; another one that looks like a misspelling of one
    /// of these is a warning ("linkURL: unknown field; did you mean linkUrl?").
    public static let campaignFields = ["picUrl", "showTime", "id", "title", "detail", "startAt", "endAt", "updatedAt",
                                        "videoUrl", "hours", "days", "maxPerDay", "minInterval", "priority", "countdown",
                                        "linkUrl", "impressionUrls", "clickUrls"]
    /// The fields of the object shape around the campaigns.
    public static let documentFields = ["campaigns", "message", "timezone"]

    /// Decodes `data` fetched from `feedURL` (used to resolve relative `picUrl`s); a date
    /// without a time (`2026-12-01`) is midnight in the feed's `timezone`, else in
    /// `deviceZone`.
    /// `file://` pictures are accepted only from a feed that is itself a local file: a
    /// feed from the network never points the kiosk at its own disk. An https feed may not
    /// name plain http pictures: what the feed's encryption protects would come in the clear.
    public static func decode(_ data: Data, from feedURL: URL, deviceZone: TimeZone) throws -> FeedDocument {
        let allowFileURLs = feedURL.scheme?.lowercased() == "file"
        let secureFeed = feedURL.scheme?.lowercased() == "https"
        if let markup = FeedSyntax.markup(data) { throw FeedError.notJSON(markup) }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw FeedError.notJSON(FeedSyntax.describe(error, in: data))
        }
        var message: String?
        var timeZone: String?
        var capWarnings: [String] = []
        let entries: [Any]
        /// Where the entries are in the document: `campaigns[3]`, `[3]`, or the document itself.
        let shape: Shape
        if let list = root as? [Any] {
            entries = list
            shape = .list
        } else if let object = root as? [String: Any] {
            if let list = object["campaigns"] {
                guard let list = list as? [Any] else {
                    throw FeedError.wrongShape("\"campaigns\" that is \(describe(list)), not a list")
                }
                entries = list
                shape = .object
                capWarnings += Misspellings(documentFields).notes(object).map { "\($0.0): \($0.1)" }
                if let raw = object["message"], !(raw is NSNull) {
                    if let m = raw as? String {
                        if !m.isEmpty { message = capped(m, to: Self.maxMessage, what: "message", warnings: &capWarnings) }
                    } else {
                        capWarnings.append("message: must be a string, got \(describe(raw)); ignored")
                    }
                }
                if let raw = object["timezone"], !(raw is NSNull) {
                    if let name = raw as? String, TimeZone(identifier: name) != nil {
                        timeZone = name
                    } else {
                        capWarnings.append("timezone: must be an IANA zone like \"Asia/Shanghai\", got "
                                           + "\(quoted(raw)); the device's zone is used")
                    }
                }
            } else {
                entries = [object]
                shape = .campaign
                if object["picUrl"] == nil, let near = NearestName.suggestion(for: "campaigns", among: Array(object.keys)) {
                    capWarnings.append("\(near): unknown field; did you mean campaigns?")
                }
            }
        } else {
            throw FeedError.wrongShape(describe(root))
        }
        let zone = timeZone.flatMap(TimeZone.init(identifier:)) ?? deviceZone

        var campaigns: [Campaign] = []
        var warnings: [String] = FeedSyntax.trailingCommas(data) + capWarnings
        var seen = Set<String>()
        // Feeds often name a few pictures many times: each is resolved once.
        var resolved: [String: URL?] = [:]
        let resolve = { (picture: String) -> URL? in
            if let known = resolved[picture] { return known }
            let url = URL(string: picture, relativeTo: feedURL)?.absoluteURL
            resolved[picture] = url
            return url
        }
        let misspellings = Misspellings(campaignFields)
        for (position, entry) in entries.enumerated() {
            let field = { (name: String) in Self.place(of: name, inEntry: position, shape: shape) }
            do {
                var notes: [(String, String)] = []
                var campaign = try decodeCampaign(entry, position: position, resolve: resolve, allowFileURLs: allowFileURLs,
                                                  secureFeed: secureFeed, zone: zone, misspellings: misspellings, notes: &notes)
                campaign.timeZone = timeZone
                guard seen.insert(campaign.id).inserted else {
                    throw EntryProblem(field: "id", problem: "repeats \"\(clip(campaign.id))\" of an earlier entry")
                }
                warnings += notes.map { "\(field($0.0)): \($0.1)" }
                campaigns.append(campaign)
            } catch let problem as EntryProblem {
                let name = problem.field == "entry" ? Self.place(ofEntry: position, shape: shape) : field(problem.field)
                warnings.append("\(name): \(problem.problem); \(label(entry)) skipped")
            }
        }
        if campaigns.isEmpty && !entries.isEmpty {
            throw FeedError.noValidCampaigns(warnings)
        }
        var document = FeedDocument(campaigns: campaigns, message: message, warnings: warnings)
        document.shape = shape
        return document
    }

    /// Notes for the fields of an object that are not known but look like one that is, by
    /// field: each unknown name is compared with the known ones once, however many entries
    /// of a large feed carry it.
    final class Misspellings {
        let known: Set<String>
        let names: [String]
        private var nearest: [String: String?] = [:]

        init(_ names: [String]) {
            self.names = names
            known = Set(names)
        }

        func notes(_ object: [String: Any]) -> [(String, String)] {
            object.keys.sorted().compactMap { key in
                guard !known.contains(key) else { return nil }
                let near: String?
                if let found = nearest[key] {
                    near = found
                } else {
                    near = NearestName.suggestion(for: key, among: names)
                    nearest[key] = near
                }
                guard let near else { return nil }
                let also = object[near] == nil ? "" : " (\(near) is set too: this one is ignored)"
                return (clip(key), "unknown field; did you mean \(near)?\(also)")
            }
        }
    }

    private struct EntryProblem: Error {
        var field: String
        var problem: String
    }

    /// The longest title, detail and message kept, in characters: more than a screen shows.
    /// Longer text is cut with "…" and a warning, so no feed can make laying out a screen
    /// take long.
    public static let maxTitle = 200
    /// The longest campaign `detail` kept, in characters.
    public static let maxDetail = 2_000
    /// The longest document `message` kept, in characters.
    public static let maxMessage = 2_000

    /// `text` cut to `limit` characters with "…", noting it in `warnings`.
    static func capped(_ text: String, to limit: Int, what: String, warnings: inout [String]) -> String {
        var notes: [(String, String)] = []
        let cut = capped(text, to: limit, what: what, notes: &notes)
        warnings += notes.map { "\($0.0): \($0.1)" }
        return cut
    }

    /// `text` cut to `limit` characters with "…", noting it for the field `what`.
    static func capped(_ text: String, to limit: Int, what: String, notes: inout [(String, String)]) -> String {
        var count = 0
        var end = text.startIndex
        while end < text.endIndex, count < limit {
            end = text.index(after: end)
            count += 1
        }
        guard end < text.endIndex else { return text }
        let cut = String(text[..<text.index(before: end)]) + "…"
        notes.append((what, "longer than \(limit) characters; cut"))
        return cut
    }

    private static func decodeCampaign(_ entry: Any, position: Int, resolve: (String) -> URL?,
                                       allowFileURLs: Bool, secureFeed: Bool, zone: TimeZone, misspellings: Misspellings,
                                       notes: inout [(String, String)]) throws -> Campaign {
        guard let object = entry as? [String: Any] else {
            throw EntryProblem(field: "entry", problem: "is \(describe(entry)), not a campaign object")
        }
        guard let rawPic = object["picUrl"] else {
            let near = NearestName.suggestion(for: "picUrl", among: Array(object.keys)).map { " (is \($0) meant?)" } ?? ""
            throw EntryProblem(field: "picUrl", problem: "is missing\(near)")
        }
        guard let picString = rawPic as? String, !picString.isEmpty else {
            throw EntryProblem(field: "picUrl", problem: "must be a URL string, got \(describe(rawPic))")
        }
        if let problem = TrackingURL.textProblem(picString) {
            throw EntryProblem(field: "picUrl", problem: problem)
        }
        guard let picURL = resolve(picString),
              let scheme = picURL.scheme?.lowercased(), ["http", "https", "file"].contains(scheme)
        else {
            throw EntryProblem(field: "picUrl", problem: "must be an http, https or file URL, got \(quoted(picString))")
        }
        // The scheme is compared in lower case: "FILE:///etc/passwd" is a local file too.
        if scheme == "file", !allowFileURLs {
            throw EntryProblem(field: "picUrl", problem: "is a local file, which only a local feed may name")
        }
        if scheme == "http", secureFeed {
            throw EntryProblem(field: "picUrl", problem: "is plain http in an https feed (use an https picture URL)")
        }
        guard let rawShow = object["showTime"] else {
            let near = NearestName.suggestion(for: "showTime", among: Array(object.keys)).map { " (is \($0) meant?)" } ?? ""
            throw EntryProblem(field: "showTime", problem: "is missing\(near)")
        }
        guard let showTime = wholeNumber(rawShow), showTime >= 0 else {
            throw EntryProblem(field: "showTime", problem: "must be a whole number ≥ 0, got \(quoted(rawShow))")
        }
        // What follows is optional: a value that is not valid is left out with a note, and
        // the campaign stays.
        var optional = OptionalFields(object: object, notes: notes)
        defer { notes = optional.notes }
        optional.notes += misspellings.notes(object)
        // The picture's URL is the id when none is given; one longer than an id may be
        // stands in as its SHA-256 (every show repeats the id).
        var id = picURL.absoluteString.count <= maxID ? picURL.absoluteString
            : "picUrl-" + SHA256.hex(picURL.absoluteString).prefix(16)
        if let rawID = optional.value("id") {
            if let s = rawID as? String, !s.isEmpty, s.count <= maxID {
                id = s
            } else if let n = wholeNumber(rawID) {
                id = String(n)
            } else if let s = rawID as? String, s.count > maxID {
                // Every show, ping and report repeats the id: one beyond the cap skips the entry.
                throw EntryProblem(field: "id", problem: "is \(s.count) characters long; an id may have \(maxID) at the most")
            } else {
                optional.drop("id", "must be a non-empty string, got \(quoted(rawID)); the picUrl is its id instead")
            }
        }
        var campaign = Campaign(
            id: id, picURL: picURL, showTime: showTime,
            title: optional.text("title").map { capped($0, to: maxTitle, what: "title", notes: &optional.notes) },
            detail: optional.text("detail").map { capped($0, to: maxDetail, what: "detail", notes: &optional.notes) },
            startAt: optional.date("startAt", zone: zone, dropped: "the campaign is shown without a start"),
            endAt: optional.date("endAt", zone: zone, dropped: "the campaign is shown without an end"),
            updatedAt: optional.date("updatedAt", zone: zone, dropped: "its place in the feed decides how new it is"),
            position: position
        )
        if let start = campaign.startAt, let end = campaign.endAt, end <= start {
            let day = (object["endAt"] as? String).map { ISO8601.date(from: $0) == nil } ?? false
            optional.drop("endAt", "is not after startAt, so the campaign is never shown"
                          + (day ? " (a day alone is its midnight: \(quoted(object["endAt"]!)) ends as that day begins; name the day after)" : ""))
        }
        campaign.impressionURLs = trackingURLs(object, "impressionUrls", campaign: id, notes: &optional.notes)
        campaign.clickURLs = trackingURLs(object, "clickUrls", campaign: id, notes: &optional.notes)
        decodeRules(&optional, into: &campaign)
        return campaign
    }

    /// The longest `id` kept, in characters; a longer one is left out (the picUrl stands in).
    public static let maxID = 200

    /// Reads a campaign's optional fields, noting each one that is left out and why.
    struct OptionalFields {
        let object: [String: Any]
        var notes: [(String, String)]

        /// The raw value, nil when absent or null.
        func value(_ key: String) -> Any? {
            guard let raw = object[key], !(raw is NSNull) else { return nil }
            return raw
        }

        mutating func drop(_ key: String, _ why: String) {
            notes.append((key, why))
        }

        mutating func text(_ key: String) -> String? {
            guard let raw = value(key) else { return nil }
            guard let s = raw as? String else {
                drop(key, "must be a string, got \(describe(raw)); ignored")
                return nil
            }
            return s.isEmpty ? nil : s
        }

        mutating func date(_ key: String, zone: TimeZone, dropped effect: String) -> Date? {
            guard let raw = value(key) else { return nil }
            guard let s = raw as? String else {
                drop(key, "must be a date string like \"2026-01-31T09:00:00+08:00\" or \"2026-01-31\", got \(describe(raw)); "
                     + "ignored: \(effect)")
                return nil
            }
            if let date = ISO8601.date(from: s) ?? ISO8601.day(from: s, in: zone) { return date }
            drop(key, "\(quoted(s)) is not an ISO 8601 date\(ISO8601.problem(s).map { " (\($0))" } ?? ""); expected "
                 + "\"2026-01-31T09:00:00+08:00\", \"2026-01-31T01:00:00Z\" or a day \"2026-01-31\"; ignored: \(effect)")
            return nil
        }

        mutating func whole(_ key: String, _ range: ClosedRange<Int>) -> Int? {
            guard let raw = value(key) else { return nil }
            guard let n = wholeNumber(raw), range.contains(n) else {
                drop(key, "must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(quoted(raw)); ignored")
                return nil
            }
            return n
        }
    }

    /// The optional rules: `hours`, `days`, `maxPerDay`, `minInterval`, `priority`,
    /// `countdown`, `linkUrl`. A value that is not valid is left out with a note.
    private static func decodeRules(_ optional: inout OptionalFields, into campaign: inout Campaign) {
        if let raw = optional.value("hours") {
            let windows = (raw as? [Any])?.map { item in (item as? String).flatMap(DailyWindow.init) }
            if let windows, !windows.contains(where: { $0 == nil }) {
                campaign.hours = windows.compactMap { $0 }
            } else {
                let bad = (raw as? [Any])?.first { item in (item as? String).flatMap(DailyWindow.init) == nil }
                optional.drop("hours", "must be a list of daily windows like [\"09:00-12:00\", \"22:00-02:00\"], got "
                              + "\(bad.map(quoted) ?? describe(raw)); ignored: shown at any hour")
            }
        }
        if let raw = optional.value("days") {
            let days = (raw as? [Any])?.map { item in (item as? String).flatMap(Weekday.init) }
            if let days, !days.contains(where: { $0 == nil }) {
                campaign.days = Set(days.compactMap { $0 })
            } else {
                let bad = (raw as? [Any])?.first { item in (item as? String).flatMap(Weekday.init) == nil }
                optional.drop("days", "must be a list of mon, tue, wed, thu, fri, sat or sun, got "
                              + "\(bad.map(quoted) ?? describe(raw)); ignored: shown on every day")
            }
        }
        campaign.maxPerDay = optional.whole("maxPerDay", 1...1_000_000)
        campaign.minInterval = optional.whole("minInterval", 1...31_536_000)
        campaign.priority = optional.whole("priority", -1_000_000...1_000_000) ?? 0
        campaign.countdown = optional.whole("countdown", 1...30)
        if let raw = optional.value("linkUrl") {
            if let text = raw as? String, text.count <= 1024, !text.unicodeScalars.contains(where: { $0.value < 0x20 }),
               let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
               !(url.host ?? "").isEmpty {
                campaign.linkURL = url
                if text.count > 300 {
                    optional.drop("linkUrl", "is \(text.count) characters long: its QR code is too dense for small screens "
                                  + "(800x480 and the like), where it is left out; a shorter link scans better")
                }
            } else {
                optional.drop("linkUrl", "must be an http or https URL of at most 1024 characters, got \(quoted(raw)); "
                              + "ignored: no QR code")
            }
        }
    }

    /// A list of tracking URLs; what is not one is left out with a note (the campaign
    /// itself stays).
    private static func trackingURLs(_ object: [String: Any], _ key: String, campaign: String,
                                     notes: inout [(String, String)]) -> [String] {
        guard let raw = object[key], !(raw is NSNull) else { return [] }
        guard let list = raw as? [Any] else {
            notes.append((key, "must be a list of URLs, got \(describe(raw)); ignored"))
            return []
        }
        var kept: [String] = []
        for (index, item) in list.enumerated() {
            guard let text = item as? String else {
                notes.append(("\(key)[\(index)]", "must be a URL string, got \(describe(item)); ignored"))
                continue
            }
            if let problem = TrackingURL.problem(text, campaign: campaign) {
                notes.append(("\(key)[\(index)]", "\(problem) (\(quoted(text))); ignored"))
            } else if kept.count == TrackingURL.perCampaign {
                notes.append((key, "has more than \(TrackingURL.perCampaign) URLs; the rest are ignored"))
                break
            } else {
                kept.append(text)
            }
        }
        return kept
    }

    /// An integer from JSON, refusing booleans, fractions and values out of range.
    static func wholeNumber(_ raw: Any) -> Int? {
        if let n = raw as? NSNumber {
            if isBoolean(n) { return nil }
            let d = n.doubleValue
            guard d.isFinite, d == d.rounded(), abs(d) < 1e15 else { return nil }
            return Int(d)
        }
        return nil
    }

    /// JSON `true`/`false` arrive as NSNumber too; they report the Objective-C type "c".
    private static func isBoolean(_ n: NSNumber) -> Bool {
        String(cString: n.objCType) == "c"
    }

    /// How a skipped entry is named: its id, else its picture, else "entry".
    private static func label(_ entry: Any) -> String {
        guard let object = entry as? [String: Any] else { return "entry" }
        if let id = object["id"] as? String, !id.isEmpty { return "campaign \"\(clip(id))\"" }
        if let pic = object["picUrl"] as? String, !pic.isEmpty { return "campaign \"\(clip(pic))\"" }
        return "entry"
    }

    static func clip(_ s: String) -> String { TerminalText.clipped(s) }

    /// A value as a warning quotes it: a string in quotes (clipped), anything else described.
    static func quoted(_ value: Any) -> String {
        if let s = value as? String { return "\"\(clip(s))\"" }
        return describe(value)
    }

    static func describe(_ value: Any) -> String {
        switch value {
        case is NSNull: return "null"
        case is String: return "a string"
        case is [Any]: return "a list"
        case is [String: Any]: return "an object"
        case let n as NSNumber where isBoolean(n): return n.boolValue ? "true" : "false"
        case let n as NSNumber: return n.stringValue
        default: return "\(type(of: value))"
        }
    }
}
