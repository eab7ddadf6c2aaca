import FoundationEssentials

/// A campaign with what this device knows about it: how often it has been shown and
/// whether its image is on disk and usable.
public struct CatalogEntry: Equatable, Sendable {
    /// The campaign as the feed describes it.
    public var campaign: Campaign
    /// Shows recorded in the ledger.
    public var shows: Int
    /// Its picture: cached (the validated local file), waiting for a sync, or refused.
    public var picture: PictureState
    /// When its latest shows were recorded, oldest first (enough for `maxPerDay`).
    public var recentShows: [Date] = []
    /// Its clip, when it has one that is cached and playable here (else its picture is shown).
    public var video: VideoClip?
    /// Why its clip is not played here, when it has one that is not (the poster is shown
    /// instead).
    public var clipProblem: ClipProblem?
    /// Why its picture, an animated GIF, is shown still (its first frame), when it is.
    public var stillBecause: String?
    /// When it was last shown, by the wall clock.
    public var lastShownAt: Date?
    /// When it was last shown in this run, by the kiosk's monotonic clock.
    public var lastShownUptime: Double?
    /// Its picture for portrait screens (`picUrlPortrait`), when it is cached and good.
    public var portraitPath: String?

    /// An entry for `campaign` with `shows` recorded and its `picture`, and no recent shows.
    public init(campaign: Campaign, shows: Int, picture: PictureState) {
        self.campaign = campaign
        self.shows = shows
        self.picture = picture
    }

    /// The local picture file; nil while it is not cached (a refused picture's file may be
    /// there still: the rules keep it off the screen).
    public var imagePath: String? {
        switch picture {
        case .cached(let path): return path
        case .refused(_, let path): return path
        case .waiting: return nil
        }
    }

    /// The picture shown on a screen of `size`: on a portrait one, the picture for portrait
    /// screens where there is one; else (and while that is not cached) the picture. Nil
    /// while the picture itself is not cached: a campaign is shown only with its picture.
    public func picturePath(for size: Size) -> String? {
        guard let imagePath else { return nil }
        return size.isPortrait ? portraitPath ?? imagePath : imagePath
    }

    /// The entry for a stored campaign as the kiosk judges it, from the facts storage keeps
    /// (the network process wrote them, and they are held to the limits again here): its
    /// picture refused (its file kept in sight when it is there), cached (`cachedPicture`:
    /// its file in the cache) or waiting; its clip
    /// played when cached (`cachedClip`) and its facts within `VideoLimits`, else why not;
    /// an animated GIF (`motion`) played as a clip when the campaign's own clip is not and
    /// it is within `AnimationLimits`, else shown still with the reason.
    public static func judged(campaign: Campaign, shows: Int, lastShownAt: Date?, recentShows: [Date],
                              cachedPicture: String?, pictureRefused: String?, pictureWaiting: String?,
                              cachedClip: String?, clipFacts: VideoFacts?, clipRefused: String?, clipWaiting: String?,
                              motion: VideoFacts?, cachedPortrait: String? = nil) -> CatalogEntry {
        let picture: PictureState = if let pictureRefused { .refused(pictureRefused, path: cachedPicture) }
            else if let cachedPicture { .cached(path: cachedPicture) }
            else { .waiting(pictureWaiting ?? notCached) }
        var entry = CatalogEntry(campaign: campaign, shows: shows, picture: picture)
        entry.portraitPath = campaign.portraitURL == nil ? nil : cachedPortrait
        entry.lastShownAt = lastShownAt
        entry.recentShows = recentShows
        if campaign.videoURL != nil {
            if let facts = clipFacts, VideoLimits.problem(facts) == nil, let cachedClip {
                entry.video = VideoClip(path: cachedClip, facts: facts)
            }
            if let refused = clipRefused ?? clipFacts.flatMap(VideoLimits.problem) {
                entry.clipProblem = .refused(refused)
            } else if entry.video == nil {
                entry.clipProblem = .notCached(clipWaiting ?? "not fetched yet")
            }
        }
        if let motion, AnimationLimits.isAnimation(motion), let path = entry.imagePath {
            if let problem = AnimationLimits.problem(motion) {
                entry.stillBecause = problem
            } else if entry.video == nil {
                entry.video = VideoClip(path: path, facts: motion)
            }
        }
        return entry
    }

    /// `showTime − shows`, never below 0.
    public var remaining: Int { max(0, campaign.showLimit - shows) }

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
