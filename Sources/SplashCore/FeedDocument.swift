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
    /// feed from the network never points the kiosk at its own disk. An https feed may not
    /// name plain http pictures: what the feed's encryption protects would come in the clear.
    public static func decode(_ data: Data, from feedURL: URL) throws -> FeedDocument {
        let allowFileURLs = feedURL.scheme?.lowercased() == "file"
        let secureFeed = feedURL.scheme?.lowercased() == "https"
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw FeedError.notJSON(Self.describeParseError(error))
        }
        var message: String?
        var timeZone: String?
        var capWarnings: [String] = []
        let entries: [Any]
        if let list = root as? [Any] {
            entries = list
        } else if let object = root as? [String: Any] {
            if let list = object["campaigns"] {
                guard let list = list as? [Any] else {
                    throw FeedError.wrongShape("\"campaigns\" that is \(describe(list)), not a list")
                }
                entries = list
                if let m = object["message"] as? String, !m.isEmpty {
                    message = capped(m, to: Self.maxMessage, what: "message", warnings: &capWarnings)
                }
                if let raw = object["timezone"], !(raw is NSNull) {
                    if let name = raw as? String, TimeZone(identifier: name) != nil {
                        timeZone = name
                    } else {
                        capWarnings.append("timezone must be an IANA zone like \"Asia/Shanghai\", got "
                                           + "\(raw is String ? "\"\(clip(raw as! String))\"" : describe(raw)); the device's zone is used")
                    }
                }
            } else {
                entries = [object]
            }
        } else {
            throw FeedError.wrongShape(describe(root))
        }

        var campaigns: [Campaign] = []
        var warnings: [String] = capWarnings
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
                var cut: [String] = []
                var campaign = try decodeCampaign(entry, position: position, resolve: resolve, allowFileURLs: allowFileURLs,
                                                  secureFeed: secureFeed, cut: &cut)
                campaign.timeZone = timeZone
                warnings += cut.map { "campaign #\(position + 1)\(label(entry)): \($0)" }
                guard seen.insert(campaign.id).inserted else {
                    throw EntryProblem(field: "id", problem: "repeats \"\(campaign.id)\" of an earlier entry")
                }
                campaigns.append(campaign)
            } catch let problem as EntryProblem {
                warnings.append("campaign #\(position + 1)\(label(entry)): \(problem.field) \(problem.problem); skipped")
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

    /// The longest title, detail and message kept, in characters: more than a screen shows.
    /// Longer text is cut with "…" and a warning, so no feed can make laying out a screen
    /// take long.
    public static let maxTitle = 200
    public static let maxDetail = 2_000
    public static let maxMessage = 2_000

    /// `text` cut to `limit` characters with "…", noting it in `warnings`.
    static func capped(_ text: String, to limit: Int, what: String, warnings: inout [String]) -> String {
        var count = 0
        var end = text.startIndex
        while end < text.endIndex, count < limit {
            end = text.index(after: end)
            count += 1
        }
        guard end < text.endIndex else { return text }
        let cut = String(text[..<text.index(before: end)]) + "…"
        warnings.append("\(what) longer than \(limit) characters; cut")
        return cut
    }

    private static func decodeCampaign(_ entry: Any, position: Int, resolve: (String) -> URL?,
                                       allowFileURLs: Bool, secureFeed: Bool, cut: inout [String]) throws -> Campaign {
        guard let object = entry as? [String: Any] else {
            throw EntryProblem(field: "entry", problem: "is \(describe(entry)), not an object")
        }
        guard let rawPic = object["picUrl"] else {
            throw EntryProblem(field: "picUrl", problem: "is missing")
        }
        guard let picString = rawPic as? String, !picString.isEmpty else {
            throw EntryProblem(field: "picUrl", problem: "must be a URL string, got \(describe(rawPic))")
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
        if scheme == "http", secureFeed {
            throw EntryProblem(field: "picUrl", problem: "is plain http in an https feed (use an https picture URL)")
        }
        guard let rawShow = object["showTime"] else {
            throw EntryProblem(field: "showTime", problem: "is missing")
        }
        guard let showTime = wholeNumber(rawShow), showTime >= 0 else {
            throw EntryProblem(field: "showTime", problem: "must be a whole number ≥ 0, got \(describe(rawShow))")
        }
        var id = picURL.absoluteString
        if let rawID = object["id"], !(rawID is NSNull) {
            if let s = rawID as? String, !s.isEmpty {
                id = s
            } else if let n = wholeNumber(rawID) {
                id = String(n)
            } else {
                throw EntryProblem(field: "id", problem: "must be a non-empty string, got \(describe(rawID))")
            }
        }
        var campaign = Campaign(
            id: id, picURL: picURL, showTime: showTime,
            title: try optionalText(object, "title").map { capped($0, to: maxTitle, what: "title", warnings: &cut) },
            detail: try optionalText(object, "detail").map { capped($0, to: maxDetail, what: "detail", warnings: &cut) },
            startAt: try optionalDate(object, "startAt"),
            endAt: try optionalDate(object, "endAt"),
            updatedAt: try optionalDate(object, "updatedAt"),
            position: position
        )
        campaign.impressionURLs = trackingURLs(object, "impressionUrls", warnings: &cut)
        campaign.clickURLs = trackingURLs(object, "clickUrls", warnings: &cut)
        try decodeRules(object, into: &campaign)
        return campaign
    }

    /// The optional rules: `hours`, `days`, `maxPerDay`, `minInterval`, `priority`,
    /// `countdown`, `linkUrl`. A value that is not valid skips the entry, as other fields do.
    private static func decodeRules(_ object: [String: Any], into campaign: inout Campaign) throws {
        if let raw = object["hours"], !(raw is NSNull) {
            guard let list = raw as? [Any] else {
                throw EntryProblem(field: "hours", problem: "must be a list like [\"09:00-12:00\", \"22:00-02:00\"], got \(describe(raw))")
            }
            campaign.hours = try list.map { item in
                guard let text = item as? String, let window = DailyWindow(text) else {
                    throw EntryProblem(field: "hours", problem: "must hold windows \"HH:MM-HH:MM\", got \(item is String ? "\"\(clip(item as! String))\"" : describe(item))")
                }
                return window
            }
        }
        if let raw = object["days"], !(raw is NSNull) {
            guard let list = raw as? [Any] else {
                throw EntryProblem(field: "days", problem: "must be a list like [\"mon\", \"sat\"], got \(describe(raw))")
            }
            campaign.days = Set(try list.map { item in
                guard let text = item as? String, let day = Weekday(text) else {
                    throw EntryProblem(field: "days", problem: "must hold mon, tue, wed, thu, fri, sat or sun, got \(item is String ? "\"\(clip(item as! String))\"" : describe(item))")
                }
                return day
            })
        }
        func whole(_ key: String, _ range: ClosedRange<Int>) throws -> Int? {
            guard let raw = object[key], !(raw is NSNull) else { return nil }
            guard let n = wholeNumber(raw), range.contains(n) else {
                throw EntryProblem(field: key, problem: "must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(describe(raw))")
            }
            return n
        }
        campaign.maxPerDay = try whole("maxPerDay", 1...1_000_000)
        campaign.minInterval = try whole("minInterval", 1...31_536_000)
        campaign.priority = try whole("priority", -1_000_000...1_000_000) ?? 0
        campaign.countdown = try whole("countdown", 1...30)
        if let raw = object["linkUrl"], !(raw is NSNull) {
            guard let text = raw as? String, text.count <= 1024, let url = URL(string: text),
                  let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), !(url.host ?? "").isEmpty
            else {
                throw EntryProblem(field: "linkUrl", problem: "must be an http or https URL of at most 1024 characters, got \(raw is String ? "\"\(clip(raw as! String))\"" : describe(raw))")
            }
            campaign.linkURL = url
        }
    }

    /// A list of tracking URLs; what is not one is left out with a warning (the campaign
    /// itself stays).
    private static func trackingURLs(_ object: [String: Any], _ key: String, warnings: inout [String]) -> [String] {
        guard let raw = object[key], !(raw is NSNull) else { return [] }
        guard let list = raw as? [Any] else {
            warnings.append("\(key) must be a list of URLs, got \(describe(raw)); ignored")
            return []
        }
        var kept: [String] = []
        for (index, item) in list.enumerated() {
            guard let text = item as? String else {
                warnings.append("\(key)[\(index)] must be a URL string, got \(describe(item)); ignored")
                continue
            }
            if let problem = TrackingURL.problem(text) {
                warnings.append("\(key)[\(index)] \(problem) (\"\(clip(text))\"); ignored")
            } else if kept.count == TrackingURL.perCampaign {
                warnings.append("\(key) has more than \(TrackingURL.perCampaign) URLs; the rest are ignored")
                break
            } else {
                kept.append(text)
            }
        }
        return kept
    }

    private static func optionalText(_ object: [String: Any], _ key: String) throws -> String? {
        guard let raw = object[key], !(raw is NSNull) else { return nil }
        guard let s = raw as? String else {
            throw EntryProblem(field: key, problem: "must be a string, got \(describe(raw))")
        }
        return s.isEmpty ? nil : s
    }

    private static func optionalDate(_ object: [String: Any], _ key: String) throws -> Date? {
        guard let raw = object[key], !(raw is NSNull) else { return nil }
        guard let s = raw as? String, let date = ISO8601.date(from: s) else {
            throw EntryProblem(field: key, problem: "must be an ISO 8601 date like 2026-01-31T09:00:00+08:00, got \(describe(raw))")
        }
        return date
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

    private static func label(_ entry: Any) -> String {
        guard let object = entry as? [String: Any] else { return "" }
        if let id = object["id"] as? String, !id.isEmpty { return " (\"\(clip(id))\")" }
        if let pic = object["picUrl"] as? String, !pic.isEmpty { return " (\"\(clip(pic))\")" }
        return ""
    }

    private static func clip(_ s: String) -> String {
        s.count > 80 ? String(s.prefix(77)) + "..." : s
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

    private static func describeParseError(_ error: Error) -> String {
        let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
        return text.count > 160 ? String(text.prefix(157)) + "..." : text
    }
}
