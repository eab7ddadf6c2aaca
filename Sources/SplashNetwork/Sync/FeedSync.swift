import Dispatch
import FoundationEssentials
import SplashPictures
import SplashServices
import SplashCore
import SplashStorage

/// One sync of the campaign feed: a conditional fetch, decoding, prefetching every new
/// picture into the cache, then applying the feed to the store in one transaction.
/// A 304 (or an unchanged file) writes nothing; a bad feed changes nothing.
public final class FeedSync {
    /// The largest feed document fetched, in bytes (1 MiB).
    public static let feedLimit = 1 << 20

    let store: CampaignStore
    let cache: ImageCache
    let fetcher: Fetcher
    let cacheMaxBytes: Int
    /// Pictures downloaded at once.
    static let parallel = 4
    /// What each sync is asked to do: set once, read by every sync.
    public var options = SyncOptions()
    /// The sync under way's own: its time and the files it replaced.
    var run = SyncRun()
    /// What syncs remember of each other, on the sync's thread: when each cached file was
    /// last found unchanged.
    var memory = SyncMemory()
    /// What the downloads running side by side write, under `sharedLock`.
    var shared = SyncShared()
    let sharedLock = Lock()
    /// The clock the budget is read on: the fetcher's.
    var clock: NetworkClock { fetcher.clock }

    /// The largest clip fetched (`video-max-mb`).
    let videoMaxBytes: Int

    /// Syncs into `store` and `cache` through `fetcher`, the cache kept within `cacheMaxBytes`,
    /// clips of at most `videoMaxBytes` (the options' `cache-max-mb` and `video-max-mb`:
    /// nothing is assumed here).
    public init(store: CampaignStore, cache: ImageCache, fetcher: Fetcher, cacheMaxBytes: Int, videoMaxBytes: Int) {
        self.store = store
        self.cache = cache
        self.fetcher = fetcher
        self.cacheMaxBytes = cacheMaxBytes
        self.videoMaxBytes = videoMaxBytes
    }

    /// Syncs `feed` at wall-clock `now`; the report says how long it took.
    public func sync(_ feed: URL, now: Date) -> SyncReport {
        let started = clock.uptime()
        run = SyncRun(budget: SyncBudget(from: started, seconds: options.budgetSeconds))
        var report = run(feed, now: now)
        report.replaced = run.replaced
        report.warnings += keepValidators()
        report.milliseconds = (clock.uptime() - started) * 1e3
        return report
    }

    /// Seconds left of the sync's budget.
    func secondsLeft() -> TimeInterval {
        run.budget.secondsLeft(at: clock.uptime())
    }

    /// Why a file was not fetched in this sync: its budget was spent.
    var budgetSpent: String {
        "not fetched: this sync's \(Int(options.budgetSeconds)) s were used up (the next sync fetches it)"
    }

    private func run(_ feed: URL, now: Date) -> SyncReport {
        // Pictures that cannot be cached would each fail with a temporary file's name: say
        // once what is wrong with the folder instead.
        if let unwritable = options.unwritable {
            return SyncReport(status: .error, campaigns: 0,
                              error: unwritable + "; the network process must be restarted once it is fixed", failure: .storage)
        }
        if let problem = FolderAccess.problem(cache.folder, role: "cache") {
            return SyncReport(status: .error, campaigns: (try? store.activeCount()) ?? 0,
                              error: problem + "; new pictures cannot be cached until then", failure: .storage)
        }
        var state: CampaignStore.FeedState
        do {
            state = try store.feedState(for: feed)
        } catch {
            // The error is what the report says; the count is only what it shows beside it.
            return SyncReport(status: .error, campaigns: (try? store.activeCount()) ?? 0, error: error.explained)
        }
        // Applied for other groups (device-groups changed): read in full, so that the group's
        // screen schedule and warnings are chosen for the groups the device is in now.
        if state.deviceGroups != store.device?.stored {
            state.etag = nil
            state.lastModified = nil
        }
        // What an unchanged feed is answered with is read while the request is in flight.
        let standing = UnchangedFeedAnswer()
        let reading = DispatchGroup()
        reading.enter()
        SerialWorker.detached(name: "splashboard.sync-read") { [store, cache, retryRefused = options.retryRefused] in
            // Only what a 304 is answered with: a failed read leaves nothing to retry this time,
            // and the next sync reads again.
            standing.campaigns = (try? store.activeCount()) ?? 0
            standing.missing = ((try? store.activePictures(includingRefused: retryRefused, portraits: false)) ?? [])
                .filter { !cache.contains(key: $0.key) }
            reading.leave()
        }
        let fetched: (Fetcher.Result, Data)
        do {
            // The feed is where the operator pointed the kiosk: the address guard lets it be.
            let fetchFeed = { [fetcher] in
                try fetcher.fetchData(feed, etag: state.etag, lastModified: state.lastModified, limit: Self.feedLimit)
            }
            fetched = try AddressGuard.installed?.whileFetchingFeed(fetchFeed) ?? fetchFeed()
        } catch {
            reading.wait()
            return failed(feed, error, now: now, campaigns: standing.campaigns)
        }
        reading.wait()
        let active = standing.campaigns
        switch fetched.0 {
        case .notModified:
            // The catalog is confirmed: "last sync" moves, the database is not written.
            store.confirm(feed, at: now)
            var report = retryMissingPictures(standing.missing, campaigns: active, now: now)
            report.warnings += fetchPortraits(now: now)
            report.warnings += fetchVideos(now: now)
            report.warnings += revalidate(now: now, feedChanged: false)
            return report
        case let .fetched(etag, lastModified, _, _):
            var document: FeedDocument
            do {
                document = try FeedDocument.decode(fetched.1, from: feed, deviceZone: .current, canDraw: options.canDraw)
            } catch {
                return failed(feed, error, now: now, campaigns: active)
            }
            // The screen schedule of this device's group, where the feed gives its groups their own.
            let (screen, conflict) = document.screen(for: store.device)
            document.screen = screen
            if let conflict { document.warnings.append(conflict) }
            // A group of this device's that the feed never names: most often a typo.
            if let device = store.device {
                document.warnings += device.unmatched(campaignGroups: document.campaigns.map(\.groups),
                                                      scheduleGroups: document.groupScreens.map(\.group))
            }
            let fingerprint = Self.fingerprint(fetched.1)
            var pictureErrors = PictureProblems()
            // What is known only spares fetching a picture refused before; unread, it is fetched.
            let known = (try? store.storedPictures(of: document.campaigns.map(\.id))) ?? [:]
            var images: [Campaign.ID: CampaignStore.ImageStatus] = [:]
            // One picture shared by many campaigns is fetched and thumbnailed once.
            var outcomes: [String: PictureOutcome] = [:]
            let keys = PictureKeys()
            // The cap holds during the sync: before new pictures come, those nobody needs
            // any more go (not eligible now, not in this feed); each new picture may then
            // take only the room left, and when there is none it is not fetched.
            var room = Room(cap: cacheMaxBytes, used: cache.usage())
            // Only the campaigns for this device have their pictures fetched.
            let mine = document.campaigns.filter { store.device?.includes($0.groups) ?? true }
            let wanted = Set(mine.map { keys.of($0.picURL).key })
            // What needs a download is fetched a few at a time, within the sync's time.
            let plan = SyncPlan(
                campaigns: mine, key: { keys.of($0).key },
                known: known.mapValues { [retryRefused = options.retryRefused] in
                    SyncPlan.Known(imageKey: $0.imageKey, refused: $0.refused && !retryRefused)
                },
                isCached: { cache.contains(key: $0) },
                // Unread, a thumbnail is made again: the cost of a failed read is one thumbnail.
                hasThumbnail: { ((try? store.thumbnail(forImageKey: $0)) ?? nil) != nil },
                isUnanswered: isUnanswered)
            for (picture, needsThumbnail) in plan.cached {
                outcomes[picture.key] = cachedStatus(picture.url, needsThumbnail: needsThumbnail)
            }
            let fetchedPictures = fetchAll(plan.downloads.map { ($0.key, $0.url) }, room: &room, keeping: wanted, now: now)
            outcomes.merge(fetchedPictures.outcomes) { a, _ in a }
            // Thumbnails are kept per picture: the first campaign with it stores it.
            let given = plan.outcomes(outcomes) { done in
                if case .cached = done.status { return PictureOutcome(.cached(thumbnail: nil), nil) }
                return done
            }
            for (id, status) in given {
                images[id] = status.status
                pictureErrors.add(status, campaign: id)
            }
            do {
                try store.apply(document, from: feed, etag: etag, lastModified: lastModified, images: images, at: now,
                                keys: keys, contentHash: fingerprint)
            } catch {
                return failed(feed, error, now: now, campaigns: active)
            }
            return SyncReport(status: .ok, campaigns: document.campaigns.count,
                              warnings: document.warnings + fetchedPictures.warnings + pictureErrors.notes + evict(now: now)
                                + fetchPortraits(now: now) + fetchVideos(now: now) + revalidate(now: now, feedChanged: fingerprint != state.contentHash),
                              pictureErrors: pictureErrors.lines)
        }
    }

    /// A fingerprint of a feed's bytes (FNV-1a, 64 bits): tells whether its content changed.
    static func fingerprint(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        data.withUnsafeBytes { bytes in
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
        }
        return String(hash, radix: 16) + "-" + String(data.count)
    }

    /// The stored campaigns a sync starts from, read beside the request.
    private final class UnchangedFeedAnswer: @unchecked Sendable {
        var campaigns = 0
        var missing: [(key: String, url: URL)] = []
    }

    private func failed(_ feed: URL, _ error: Error, now: Date, campaigns: Int) -> SyncReport {
        // Kept in the database and shown in the operator view, on the public screen: every
        // address in the error is already its public form (the fetcher writes no other).
        let message = "feed \(feed.publicAddress): \(error.explained)"
        // The failure reaches the log through the report either way; keeping it is for the
        // operator view and the backoff's record.
        try? store.recordSyncFailure(for: feed, error: message, at: now)
        return SyncReport(status: .error, campaigns: campaigns, error: message, failure: Self.kind(of: error))
    }

    /// What kind of failure `error` is.
    static func kind(of error: Error) -> SyncFailure {
        switch error {
        case let fetch as FetchError:
            switch fetch {
            case .unresolvable: return .resolve
            case .connectionFailed, .transport: return .connect
            case .timedOut, .tooSlow: return .timeout
            case .tls, .handshake, .notTLS: return .tls
            case .status: return .status
            case .insideAddress: return .addressRule
            case .tooLarge, .tooManyRedirects, .insecureRedirect, .redirectScheme, .malformedURL, .unaskedNotModified,
                 .unsupportedScheme, .fileMissing, .notAFile, .unreadableFile, .unreadableAs:
                return .other
            case .afterRedirect(let underlying, _): return kind(of: underlying)
            }
        case is FeedError: return .invalidFeed
        case is StoreError: return .storage
        default: return .other
        }
    }

    /// Trims the cache to its cap; a warning when it could not be (what must stay could not
    /// be read, so nothing was removed).
    func evict(now: Date) -> [String] {
        do {
            try store.evict(cache, toFit: cacheMaxBytes, now: now)
            return []
        } catch {
            return ["image cache not trimmed to its cap: \(error.explained)"]
        }
    }
}
