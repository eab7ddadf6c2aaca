import FoundationEssentials

/// What `splashboard feed check` found: every problem with its place in the document, what
/// was fetched and checked, and a summary. The network program reads and checks the feed and
/// hands this over as JSON (`wire`, with the campaigns' words); the display program adds what
/// only its fonts can tell (a title cut on the screens) and prints it.
public struct FeedCheckReport: Sendable {
    /// The feed checked.
    public var feed: URL
    /// Why the feed could not be read at all (fetched, parsed as a feed); nil when it could.
    public var error: String?
    /// Campaigns that would apply.
    public var campaigns = 0
    /// Distinct pictures fetched and checked.
    public var pictures = 0
    /// Campaigns that would wait for their picture (refused, not fetched, too large):
    /// applied, but not shown until it is fixed.
    public var waitingForPicture: [String] = []
    /// Distinct clips fetched and checked.
    public var videos = 0
    /// Every problem, each starting with its place in the document.
    public var problems: [String] = []
    /// With `--device-groups`: the campaigns a device in those groups would show, and a
    /// line for each it would not (not problems: the feed means them for other screens).
    public var forDevice: [String]?
    public var notForDevice: [String] = []
    /// The words of each campaign that would apply, for laying its title out.
    public var texts: [CampaignText] = []

    /// One campaign's words, with its place in the document.
    public struct CampaignText: Sendable, Equatable {
        public var place: String
        public var id: String
        public var title: String?
        public var detail: String?
        public var linkURL: String?
        public var linkLabel: String?

        public init(place: String, id: String, title: String?, detail: String?, linkURL: String?, linkLabel: String?) {
            (self.place, self.id, self.title, self.detail, self.linkURL, self.linkLabel) = (place, id, title, detail, linkURL, linkLabel)
        }
    }

    public init(feed: URL) {
        self.feed = feed
    }

    /// 0 clean, 1 problems found, 2 the feed could not be read.
    public var exitStatus: Int32 { error != nil ? 2 : problems.isEmpty ? 0 : 1 }

    /// One line: what the check found.
    public var summary: String {
        if let error { return "\(feed.publicAddress): cannot be read: \(error)" }
        let found: String = problems.isEmpty ? "no problems" : Plural.count(problems.count, "problem")
        var notes: [String] = forDevice.map { ["\($0.count) of them for this device"] } ?? []
        if !waitingForPicture.isEmpty {
            notes.append("\(waitingForPicture.count) of them not shown until \(waitingForPicture.count == 1 ? "its picture is" : "their pictures are") fixed")
        }
        let mine: String = notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))"
        let clips: String = videos > 0 ? " and \(Plural.count(videos, "video"))" : ""
        let checked: String = "\(Plural.count(pictures, "picture"))\(clips) checked"
        return "\(feed.publicAddress): \(Plural.count(campaigns, "campaign")) would apply\(mine), \(checked); \(found)"
    }

    /// The report as a person reads it: each problem, each campaign not for the device, the summary.
    public var lines: [String] {
        (problems + notForDevice + [summary]).map(TerminalText.printable)
    }

    /// The report as `--json` prints it.
    public var json: JSONValue {
        .object([
            ("feed", .string(feed.publicAddress)), ("readable", .bool(error == nil)),
            ("error", error.map(JSONValue.string) ?? .null), ("campaigns", .int(campaigns)),
            ("pictures", .int(pictures)), ("videos", .int(videos)), ("problems", .array(problems.map(JSONValue.string))),
            ("forDevice", forDevice.map { .array($0.map(JSONValue.string)) } ?? .null),
            ("notForDevice", .array(notForDevice.map(JSONValue.string))),
            ("status", .int(Int(exitStatus))),
        ])
    }

    /// The report as the network program hands it over: `json` with the feed's address
    /// whole, the campaigns waiting and their words.
    public var wire: JSONValue {
        guard case .object(var fields) = json else { return json }
        fields.append(("address", .string(feed.absoluteString)))
        fields.append(("waitingForPicture", .array(waitingForPicture.map(JSONValue.string))))
        fields.append(("texts", .array(texts.map { text in
            .object([("place", .string(text.place)), ("id", .string(text.id)), ("title", text.title.map(JSONValue.string) ?? .null),
                     ("detail", text.detail.map(JSONValue.string) ?? .null), ("linkUrl", text.linkURL.map(JSONValue.string) ?? .null),
                     ("linkLabel", text.linkLabel.map(JSONValue.string) ?? .null)])
        })))
        return .object(fields)
    }

    /// A report read back from its `wire` form; nil for anything else.
    public init?(wire data: Data) {
        guard let object = try? JSONReader.value(data) as? [String: Any], let address = object["address"] as? String,
              let feed = URL(string: address) else { return nil }
        self.feed = feed
        func strings(_ key: String) -> [String] { (object[key] as? [Any])?.compactMap { $0 as? String } ?? [] }
        func whole(_ key: String) -> Int { JSONReader.number(object[key]).map { Int($0) } ?? 0 }
        error = object["error"] as? String
        campaigns = whole("campaigns")
        pictures = whole("pictures")
        videos = whole("videos")
        problems = strings("problems")
        waitingForPicture = strings("waitingForPicture")
        forDevice = object["forDevice"] is [Any] ? strings("forDevice") : nil
        notForDevice = strings("notForDevice")
        texts = ((object["texts"] as? [Any]) ?? []).compactMap { raw in
            guard let t = raw as? [String: Any], let place = t["place"] as? String, let id = t["id"] as? String else { return nil }
            return CampaignText(place: place, id: id, title: t["title"] as? String, detail: t["detail"] as? String,
                                linkURL: t["linkUrl"] as? String, linkLabel: t["linkLabel"] as? String)
        }
    }
}
