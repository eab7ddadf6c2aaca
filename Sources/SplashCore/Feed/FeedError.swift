import FoundationEssentials

/// A feed document that cannot be applied. Nothing changes when one of these is thrown.
public enum FeedError: LocalizedError, Equatable, Sendable {
    case notJSON(String)
    case wrongShape(String)
    case noValidCampaigns([String])

    /// What is wrong with the feed, in words for the operator.
    public var errorDescription: String? {
        switch self {
        case .notJSON(let detail):
            return detail.hasPrefix("the feed URL answered") ? detail : "the feed is not valid JSON: \(detail)"
        case .wrongShape(let found):
            return "the feed must be a campaign object, an array of campaigns or {\"campaigns\": [...]}, got \(found)"
        case .noValidCampaigns(let warnings):
            let named = warnings.prefix(Self.problemsNamed).joined(separator: "; ")
            let more = warnings.count - Self.problemsNamed
            return "no campaign in the feed is valid, so nothing changed: " + named
                + (more > 0 ? "; and \(more) more (`splashboard feed check FEED` names every one)" : "")
        }
    }

    /// How many of the campaigns' problems a message names before it counts the rest: a
    /// feed of thousands of broken entries must not make a message of a megabyte.
    public static let problemsNamed = 5
}
