import Foundation

/// A campaign with what this device knows about it: how often it has been shown and
/// whether its image is on disk and usable.
public struct CatalogEntry: Equatable, Sendable {
    public var campaign: Campaign
    /// Shows recorded in the ledger.
    public var shows: Int
    /// The validated local image file; nil while it is not cached.
    public var imagePath: String?
    /// Why the image cannot be used, when it cannot.
    public var imageProblem: String?
    /// Why the image is not cached yet ("cache full", a network error), when that is known.
    public var imageWaiting: String?

    public init(campaign: Campaign, shows: Int = 0, imagePath: String? = nil, imageProblem: String? = nil,
                imageWaiting: String? = nil) {
        self.campaign = campaign
        self.shows = shows
        self.imagePath = imagePath
        self.imageProblem = imageProblem
        self.imageWaiting = imageWaiting
    }

    /// `showTime − shows`, never below 0.
    public var remaining: Int { max(0, campaign.showTime - shows) }

    /// Eligible: running at `date`, shows left, and its image cached and usable.
    public func isEligible(at date: Date) -> Bool {
        ineligibility(at: date) == nil
    }

    /// Why the campaign cannot be shown at `date`, or nil when it can.
    public func ineligibility(at date: Date) -> String? {
        if let start = campaign.startAt, date < start { return "not started" }
        if let end = campaign.endAt, date >= end { return "ended" }
        if remaining <= 0 { return "used up" }
        if let imageProblem { return "image refused: \(imageProblem)" }
        if imagePath == nil { return imageWaiting.map { "image missing: \($0)" } ?? "image missing" }
        return nil
    }

    /// The newest eligible entry of `catalog` at `date` (newest wins), or nil.
    public static func newestEligible(in catalog: [CatalogEntry], at date: Date) -> Int? {
        catalog.indices
            .filter { catalog[$0].isEligible(at: date) }
            .max { Campaign.isOlder(catalog[$0].campaign, than: catalog[$1].campaign) }
    }
}
