import Foundation

/// A campaign with what this device knows about it: how often it has been shown and
/// whether its image is on disk and usable.
public struct CatalogEntry: Equatable, Sendable {
    /// The campaign as the feed describes it.
    public var campaign: Campaign
    /// Shows recorded in the ledger.
    public var shows: Int
    /// The validated local image file; nil while it is not cached.
    public var imagePath: String?
    /// Why the image cannot be used, when it cannot.
    public var imageProblem: String?
    /// Why the image is not cached yet ("cache full", a network error), when that is known.
    public var imageWaiting: String?
    /// When its latest shows were recorded, oldest first (enough for `maxPerDay`).
    public var recentShows: [Date] = []
    /// Its clip, when it has one that is cached and playable here (else its picture is shown).
    public var video: VideoClip?
    /// Why its clip is not played here, when it is not (the poster is shown instead).
    public var videoProblem: String?
    /// Why its clip is not cached yet, when it is not.
    public var videoWaiting: String?
    /// Why its picture, an animated GIF, is shown still (its first frame), when it is.
    public var stillBecause: String?
    /// When it was last shown, by the wall clock.
    public var lastShownAt: Date?
    /// When it was last shown in this run, by the kiosk's monotonic clock.
    public var lastShownUptime: Double?

    /// An entry for `campaign` with what is known of it, and no recent shows.
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

    /// Eligible: running at `date`, shows left, and its image cached and usable, inside
    /// its days and hours, under its daily cap and spacing.
    public func isEligible(at date: Date, context: RuleContext) -> Bool {
        ineligibility(at: date, context: context) == nil
    }

    /// Notes a show recorded at `date` (`uptime`: the kiosk's monotonic seconds).
    public mutating func noteShow(at date: Date, uptime: Double?) {
        shows += 1
        lastShownAt = date
        lastShownUptime = uptime
        recentShows.append(date)
        if recentShows.count > Self.recentLimit { recentShows.removeFirst(recentShows.count - Self.recentLimit) }
    }

    /// Why a picture that is not in the cache waits, when nothing else is known: the words
    /// the screen's rules, `campaigns` and `status` all use.
    public static let notCached = "not in the picture cache (fetched at the next sync)"

    /// Recent shows kept per campaign: a daily cap above this counts no further.
    public static let recentLimit = 1000

    /// Why the campaign cannot be shown at `date`, or nil when it can.
    public func ineligibility(at date: Date, context: RuleContext) -> String? {
        CampaignRules.ineligibility(of: self, at: date, context: context)
    }

    /// The entry the next splash shows at `date`: the highest priority among the eligible,
    /// then the newest (`--pick newest`) or the least recently shown (`rotate`); nil for none.
    public static func nextToShow(in catalog: [CatalogEntry], at date: Date,
                                  context: RuleContext) -> Int? {
        CampaignRules.pick(in: catalog, at: date, context: context)
    }
}
