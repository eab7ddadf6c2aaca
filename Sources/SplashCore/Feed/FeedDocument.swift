import FoundationEssentials

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
    /// The fleet's screen schedule (`screen`), with the feed's `timezone` when it names
    /// none of its own; nil when the feed has none.
    public var screen: FeedScreen?
    /// Device groups' own screen schedules (`groups`: {"lobby": {"screen": {…}}}), in the
    /// feed's order, each with the feed's `timezone` when it names none.
    public var groupScreens: [GroupScreen] = []
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
                                        "linkUrl", "linkLabel", "impressionUrls", "clickUrls", "focus", "picUrlPortrait", "groups"]
    /// The fields of the object shape around the campaigns.
    public static let documentFields = ["campaigns", "message", "timezone", "screen", "groups"]
    /// Document fields written into a campaign, where they mean nothing.
    static let misplacedInCampaigns = [
        "timezone": "the zone is set once for the whole feed, as \"timezone\" beside \"campaigns\", not per campaign; "
            + "ignored here",
        "screen": "the screen schedule is set once for the whole feed, as \"screen\" beside \"campaigns\"; ignored here",
    ]

    /// Decodes `data` fetched from `feedURL` (used to resolve relative `picUrl`s); a date
    /// without a time (`2026-12-01`) is midnight in the feed's `timezone`, else in
    /// `deviceZone`.
    /// `file://` pictures are accepted only from a feed that is itself a local file: a
    /// feed from the network never points the kiosk at its own disk. An https feed may not
    /// name plain http pictures: what the feed's encryption protects would come in the clear.
    ///
    /// `canDraw` says whether this device's fonts can draw a character; with it, a title,
    /// detail or message with characters none can draw is a warning.
    public static func decode(_ data: Data, from feedURL: URL, deviceZone: Zone,
                              canDraw: ((Unicode.Scalar) -> Bool)? = nil) throws -> FeedDocument {
        let allowFileURLs = feedURL.scheme?.lowercased() == "file"
        let secureFeed = feedURL.scheme?.lowercased() == "https"
        if let markup = FeedSyntax.markup(data) { throw FeedError.notJSON(markup) }
        let root: Any
        do {
            root = try JSONReader.value(data)
        } catch {
            throw FeedError.notJSON(FeedSyntax.describe(error, in: data))
        }
        var message: String?
        var timeZone: String?
        var screen: FeedScreen?
        var groupScreens: [GroupScreen] = []
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
                if let raw = object["message"], !(raw is JSONNull) {
                    if let m = raw as? String {
                        if !m.isEmpty { message = capped(m, to: Self.maxMessage, what: "message", warnings: &capWarnings) }
                    } else {
                        capWarnings.append("message: must be a string, got \(describe(raw)); ignored")
                    }
                }
                if let raw = object["timezone"], !(raw is JSONNull) {
                    let read = FeedZone.read(raw, field: "timezone", otherwise: "the device's zone is used")
                    timeZone = read.zone
                    if let warning = read.warning { capWarnings.append(warning) }
                }
                if let raw = object["screen"], !(raw is JSONNull) {
                    screen = decodeScreen(raw, warnings: &capWarnings)
                }
                if let raw = object["groups"], !(raw is JSONNull) {
                    groupScreens = decodeGroups(raw, warnings: &capWarnings)
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
        let zone = timeZone.flatMap(Zone.init(identifier:)) ?? deviceZone

        var campaigns: [Campaign] = []
        var warnings: [String] = FeedSyntax.trailingCommas(data) + capWarnings
        if entries.isEmpty {
            // Meant, at times (the feed emptied on purpose); more often a feed written half-way.
            warnings.append("the feed lists no campaigns: every campaign is retired, and the screen shows its fallback "
                            + "(the default picture; the detail screen with fallback = skip) until a feed lists one again")
        }
        var seen = Set<Campaign.ID>()
        // Feeds often name a few pictures many times: each is resolved once.
        var resolved: [String: URL?] = [:]
        // Against the feed's address without its user part: a password given for the feed is
        // the feed's alone, never copied into the pictures' addresses (kept, shown as ids).
        let base: URL = {
            guard feedURL.user != nil || feedURL.password != nil,
                  var parts = URLComponents(url: feedURL, resolvingAgainstBaseURL: true) else { return feedURL }
            parts.user = nil
            parts.password = nil
            return parts.url ?? feedURL
        }()
        let resolve = { (picture: String) -> URL? in
            if let known = resolved[picture] { return known }
            let url = URL(string: picture, relativeTo: base)?.absoluteURL
            resolved[picture] = url
            return url
        }
        let misspellings = Misspellings(campaignFields, misplaced: misplacedInCampaigns)
        for (position, entry) in entries.enumerated() {
            let field = { (name: String) in Self.place(of: name, inEntry: position, shape: shape) }
            do {
                var notes: [(String, String)] = []
                var campaign = try decodeCampaign(entry, position: position, resolve: resolve, allowFileURLs: allowFileURLs,
                                                  secureFeed: secureFeed, zone: zone, misspellings: misspellings, notes: &notes)
                campaign.timeZone = timeZone
                guard seen.insert(campaign.id).inserted else {
                    throw EntryProblem(field: "id", problem: "repeats \"\(clip(campaign.id.rawValue))\" of an earlier entry")
                }
                warnings += notes.map { "\(field($0.0)): \($0.1)" }
                if let canDraw {
                    for (name, text) in [("title", campaign.title), ("detail", campaign.detail)] {
                        if let text, let note = glyphWarning(text, canDraw: canDraw) { warnings.append("\(field(name)): \(note)") }
                    }
                }
                campaigns.append(campaign)
            } catch let problem as EntryProblem {
                let name = problem.field == "entry" ? Self.place(ofEntry: position, shape: shape) : field(problem.field)
                warnings.append("\(name): \(problem.problem); \(label(entry)) skipped")
            }
        }
        if campaigns.isEmpty && !entries.isEmpty {
            throw FeedError.noValidCampaigns(warnings)
        }
        if let canDraw, let message, let note = glyphWarning(message, canDraw: canDraw) {
            warnings.append("message: \(note)")
        }
        var document = FeedDocument(campaigns: campaigns, message: message, warnings: warnings)
        document.shape = shape
        if var screen {
            screen.timezone = screen.timezone ?? timeZone
            document.screen = screen
        }
        document.groupScreens = groupScreens.map { var g = $0; g.screen.timezone = g.screen.timezone ?? timeZone; return g }
        return document
    }

    /// Notes for the fields of an object that are not known but look like one that is, by
    /// field: each unknown name is compared with the known ones once, however many entries
    /// of a large feed carry it.
    final class Misspellings {
        let known: Set<String>
        let names: [String]
        private var nearest: [String: String?] = [:]

        /// Fields that belong to another level of the document, with what to do instead.
        let misplaced: [String: String]

        init(_ names: [String], misplaced: [String: String] = [:]) {
            self.names = names
            self.misplaced = misplaced
            known = Set(names)
        }

        func notes(_ object: [String: Any]) -> [(String, String)] {
            object.keys.sorted().compactMap { key in
                guard !known.contains(key) else { return nil }
                if let instead = misplaced[key] { return (key, instead) }
                let near: String?
                if let found = nearest[key] {
                    near = found
                } else {
                    near = NearestName.suggestion(for: key, among: names)
                    nearest[key] = near
                }
                guard let near else { return nil }
                let also = object[near] == nil ? "" : " (\(near) is set too: this one is ignored)"
                // What the misspelling changes where it matters most: who sees the campaign.
                let follows = near == "groups" && object[near] == nil ? "; until it is spelt so, the campaign is shown on every screen" : ""
                return (clip(key), "unknown field; did you mean \(near)?\(also)\(follows)")
            }
        }
    }
}
