import FoundationEssentials

/// One entry of a feed decoded: its required fields checked (an invalid one skips the
/// entry), its optional fields and rules taken or dropped with a warning, its tracking
/// URLs checked with its own id filled in.
extension FeedDocument {
    struct EntryProblem: Error {
        var field: String
        var problem: String
    }

    static func decodeCampaign(_ entry: Any, position: Int, resolve: (String) -> URL?,
                                       allowFileURLs: Bool, secureFeed: Bool, zone: Zone, misspellings: Misspellings,
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
        let picURL: URL
        switch mediaURL(picString, kind: "picture", resolve: resolve, allowFileURLs: allowFileURLs, secureFeed: secureFeed) {
        case .success(let url): picURL = url
        case .failure(let problem): throw EntryProblem(field: "picUrl", problem: problem.problem)
        }
        if let hint = schemeHint(picString, resolved: picURL) { notes.append(("picUrl", hint)) }
        guard let rawShow = object["showTime"] else {
            let near = NearestName.suggestion(for: "showTime", among: Array(object.keys)).map { " (is \($0) meant?)" } ?? ""
            throw EntryProblem(field: "showTime", problem: "is missing\(near)")
        }
        guard let showLimit = wholeNumber(rawShow), showLimit >= 0 else {
            throw EntryProblem(field: "showTime", problem: "must be a whole number ≥ 0, got \(quoted(rawShow))")
        }
        // The screens it is for: a list that cannot be read skips the campaign rather than
        // show it on screens it is not for.
        var groups: [String]?
        if let raw = object["groups"], !(raw is JSONNull) {
            let list = raw as? [Any]
            let names = list?.compactMap { $0 as? String }.filter(DeviceIdentity.isValid) ?? []
            guard let list, names.count == list.count else {
                throw EntryProblem(field: "groups", problem: "must be a list of group names, each 1 to 64 letters, digits, '.', '_', "
                                   + "'-' or ':', got \(describe(raw)); the campaign is skipped rather than shown on screens it is not for")
            }
            if names.isEmpty { notes.append(("groups", "is empty: the campaign is for no screen, and is shown nowhere")) }
            groups = names.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
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
            id: Campaign.ID(id), picURL: picURL, showLimit: showLimit,
            title: optional.text("title").map { capped($0, to: maxTitle, what: "title", notes: &optional.notes) },
            detail: optional.text("detail").map { capped($0, to: maxDetail, what: "detail", notes: &optional.notes) },
            startAt: optional.date("startAt", zone: zone, dropped: "the campaign is shown without a start"),
            endAt: optional.date("endAt", zone: zone, dropped: "the campaign is shown without an end"),
            updatedAt: optional.date("updatedAt", zone: zone, dropped: "its place in the feed decides how new it is"),
            position: position
        )
        if let start = campaign.startAt, let end = campaign.endAt, end <= start {
            // The same day for both, written as days: the end is that day's midnight, its start.
            let day = end == start && (object["endAt"] as? String).map { ISO8601.date(from: $0) == nil } == true
            optional.drop("endAt", "is not after startAt, so the campaign is never shown"
                          + (day ? " (a day alone is its midnight: \(quoted(object["endAt"]!)) ends as that day begins; name the day after)" : ""))
        }
        campaign.impressionURLs = trackingURLs(object, "impressionUrls", campaign: id, notes: &optional.notes)
        campaign.clickURLs = trackingURLs(object, "clickUrls", campaign: id, notes: &optional.notes)
        campaign.groups = groups
        decodeRules(&optional, into: &campaign)
        campaign.videoURL = optionalMediaURL(&optional, "videoUrl", kind: "video", resolve: resolve, allowFileURLs: allowFileURLs,
                                             secureFeed: secureFeed)
        campaign.portraitURL = optionalMediaURL(&optional, "picUrlPortrait", kind: "picture", resolve: resolve,
                                                allowFileURLs: allowFileURLs, secureFeed: secureFeed)
        return campaign
    }

    /// The campaign's `videoUrl` or `picUrlPortrait` (`key`), resolved as `picUrl` is and
    /// held to the same rules; a value that is not one is left out with a note (the picUrl
    /// is shown instead).
    static func optionalMediaURL(_ optional: inout OptionalFields, _ key: String, kind: String, resolve: (String) -> URL?,
                                 allowFileURLs: Bool, secureFeed: Bool) -> URL? {
        guard let raw = optional.value(key) else { return nil }
        let ignored = "ignored: the picUrl is shown instead"
        guard let text = raw as? String else {
            optional.drop(key, "must be a URL string, got \(describe(raw)); \(ignored)")
            return nil
        }
        guard !text.isEmpty else {
            optional.drop(key, "is empty; \(ignored)")
            return nil
        }
        switch mediaURL(text, kind: kind, resolve: resolve, allowFileURLs: allowFileURLs, secureFeed: secureFeed) {
        case .success(let url):
            if let hint = schemeHint(text, resolved: url) { optional.drop(key, hint) }
            return url
        case .failure(let problem):
            optional.drop(key, "\(problem.problem); \(ignored)")
            return nil
        }
    }

    /// A picture's or a clip's address (`kind`: "picture", "video") as the feed gave it,
    /// resolved against the feed's: at most 2,048 bytes without control characters, http,
    /// https or file, a file only in a local feed, no plain http in an https feed.
    static func mediaURL(_ text: String, kind: String, resolve: (String) -> URL?, allowFileURLs: Bool,
                         secureFeed: Bool) -> Result<URL, EntryProblem> {
        func refuse(_ problem: String) -> Result<URL, EntryProblem> { .failure(EntryProblem(field: kind, problem: problem)) }
        if let problem = TrackingURL.textProblem(text) { return refuse(problem) }
        guard let url = resolve(text), let scheme = url.scheme?.lowercased(), ["http", "https", "file"].contains(scheme) else {
            return refuse("must be an http, https or file URL, got \(quoted(text))")
        }
        // A web address without a host ("http:/10.0.0.1/a.jpg", "http:///inside/a.jpg") is
        // read one way here and another by the HTTP library: refused as written.
        if scheme != "file", (url.host ?? "").isEmpty {
            return refuse("has no host: write \(scheme)://host/path, with two slashes, got \(quoted(text))")
        }
        // The scheme is compared in lower case: "FILE:///etc/passwd" is a local file too.
        if scheme == "file", !allowFileURLs { return refuse("is a local file, which only a local feed may name") }
        if scheme == "http", secureFeed { return refuse("is plain http in an https feed (use an https \(kind) URL)") }
        return .success(url)
    }

    /// What to say of an address written without its scheme that starts with what looks
    /// like a server's name ("cdn.example.com/a.mp4"): it is read as a path beside the feed
    /// (`resolved`), which is seldom what was meant. Nil for anything else.
    static func schemeHint(_ text: String, resolved: URL) -> String? {
        guard SchemelessAddress.startsWithHost(text) else { return nil }
        return "\(quoted(text)) has no scheme, so it is read as a path beside the feed (\(resolved.absoluteString)); "
            + "if \(SchemelessAddress.host(of: text)) is a server, write \(quoted("https://" + text))"
    }

    /// The longest `id` kept, in characters; a longer one is left out (the picUrl stands in).
    public static let maxID = 200

    /// Reads a campaign's optional fields, noting each one that is left out and why.
    struct OptionalFields {
        let object: [String: Any]
        var notes: [(String, String)]

        /// The raw value, nil when absent or null.
        func value(_ key: String) -> Any? {
            guard let raw = object[key], !(raw is JSONNull) else { return nil }
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

        mutating func date(_ key: String, zone: Zone, dropped effect: String) -> Date? {
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
    /// `countdown`, `focus`, `linkUrl`. A value that is not valid is left out with a note.
    static func decodeRules(_ optional: inout OptionalFields, into campaign: inout Campaign) {
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
        campaign.maxPerDay = optional.whole("maxPerDay", Campaign.maxPerDayRange)
        campaign.minInterval = optional.whole("minInterval", Campaign.minIntervalRange)
        campaign.priority = optional.whole("priority", Campaign.priorityRange) ?? 0
        campaign.countdown = optional.whole("countdown", Campaign.countdownRange)
        if let raw = optional.value("focus") {
            let object = raw as? [String: Any]
            if let object, object.count == 2, let x = JSONReader.number(object["x"]), let y = JSONReader.number(object["y"]),
               let point = FocusPoint(x: x, y: y) {
                campaign.focus = point
            } else {
                optional.drop("focus", "must be {\"x\": 0.5, \"y\": 0.2}: fractions from 0 to 1 of the picture's width and height, got "
                              + "\(describe(raw)); ignored: a crop keeps the picture's centre")
            }
        }
        if let raw = optional.value("linkUrl") {
            if let text = raw as? String, text.count <= Campaign.linkMaxLength, !text.unicodeScalars.contains(where: { $0.value < 0x20 }),
               let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
               !(url.host ?? "").isEmpty {
                campaign.linkURL = url
                // The rule the screen draws by, at the smallest screen: a code that dense is left out there.
                if let modules = LinkCodeSize.modules(for: url.absoluteString),
                   LinkCodeSize.modulePixels(modules: modules, short: LinkCodeSize.smallScreen) == nil {
                    optional.drop("linkUrl", "is \(text.count) characters long: its QR code (\(modules)×\(modules) modules) is too "
                                  + "dense for small screens (800x480 and the like), where it is left out; a shorter link scans better")
                }
            } else {
                optional.drop("linkUrl", "must be an http or https URL of at most \(Campaign.linkMaxLength) characters, got \(quoted(raw)); "
                              + "ignored: no QR code")
            }
        }
        if let label = optional.text("linkLabel") {
            let words = label.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            if campaign.linkURL == nil {
                optional.notes.append(("linkLabel", "labels the linkUrl's QR code, and this campaign has no linkUrl; ignored"))
            } else if !words.isEmpty {
                campaign.linkLabel = capped(words, to: Campaign.linkLabelMaxLength, what: "linkLabel", notes: &optional.notes)
            }
        }
    }

    /// A list of tracking URLs; what is not one is left out with a note (the campaign
    /// itself stays).
    static func trackingURLs(_ object: [String: Any], _ key: String, campaign: String,
                                     notes: inout [(String, String)]) -> [String] {
        guard let raw = object[key], !(raw is JSONNull) else { return [] }
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
}
