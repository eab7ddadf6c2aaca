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

    /// Carries out what the `SyncPlanner` decides, step by step, telling it what each came
    /// to; the report is what the steps made.
    private func run(_ feed: URL, now: Date) -> SyncReport {
        var planner = SyncPlanner()
        var step = planner.start()
        var report = SyncReport(status: .error, campaigns: 0)
        while true {
            let outcome: SyncPlanner.Outcome
            switch step {
            case .checkFolders:
                outcome = checkFolders(&report)
            case .readFeedState:
                outcome = readFeedState(feed, &report)
            case let .fetchFeed(etag, lastModified):
                outcome = fetchFeed(feed, etag: etag, lastModified: lastModified, now: now, &report)
            case .confirmUnchanged:
                // The catalog is confirmed: "last sync" moves, the database is not written.
                store.confirm(feed, at: now)
                report = retryMissingPictures(run.standing.missing, campaigns: run.standing.campaigns, now: now)
                outcome = .done
            case .takeDocument:
                outcome = takeDocument(feed, now: now, &report)
            case .evict:
                report.warnings += evict(now: now)
                outcome = .done
            case .fetchPortraits:
                report.warnings += fetchPortraits(now: now)
                outcome = .done
            case .fetchVideos:
                report.warnings += fetchVideos(now: now)
                outcome = .done
            case .revalidate(let feedChanged):
                report.warnings += revalidate(now: now, feedChanged: feedChanged)
                outcome = .done
            case .finish:
                return report
            }
            step = planner.next(after: outcome)
        }
    }

    /// Pictures that cannot be cached would each fail with a temporary file's name: what is
    /// wrong with the folder is said once instead.
    private func checkFolders(_ report: inout SyncReport) -> SyncPlanner.Outcome {
        if let unwritable = options.unwritable {
            report = SyncReport(status: .error, campaigns: 0,
                                error: unwritable + "; the network process must be restarted once it is fixed", failure: .storage)
            return .failed
        }
        if let problem = FolderAccess.problem(cache.folder, role: "cache") {
            report = SyncReport(status: .error, campaigns: (try? store.activeCount()) ?? 0,
                                error: problem + "; new pictures cannot be cached until then", failure: .storage)
            return .failed
        }
        return .done
    }

    /// What the store knows of `feed`: its validators, its content's fingerprint, and
    /// whether it was applied for other device groups than the device's now.
    private func readFeedState(_ feed: URL, _ report: inout SyncReport) -> SyncPlanner.Outcome {
        do {
            let state = try store.feedState(for: feed)
            return .feedState(SyncPlanner.Known(etag: state.etag, lastModified: state.lastModified,
                                                contentHash: state.contentHash,
                                                groupsChanged: state.deviceGroups != store.device?.stored))
        } catch {
            // The error is what the report says; the count is only what it shows beside it.
            report = SyncReport(status: .error, campaigns: (try? store.activeCount()) ?? 0, error: error.explained)
            return .failed
        }
    }

    /// Asks for the feed; what an unchanged feed is answered with (the stored campaigns,
    /// the pictures still missing) is read while the request is in flight.
    private func fetchFeed(_ feed: URL, etag: String?, lastModified: String?, now: Date,
                           _ report: inout SyncReport) -> SyncPlanner.Outcome {
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
                try fetcher.fetchData(feed, etag: etag, lastModified: lastModified, limit: Self.feedLimit)
            }
            fetched = try AddressGuard.installed?.whileFetchingFeed(fetchFeed) ?? fetchFeed()
        } catch {
            reading.wait()
            report = failed(feed, error, now: now, campaigns: standing.campaigns)
            return .failed
        }
        reading.wait()
        run.standing = (standing.campaigns, standing.missing)
        switch fetched.0 {
        case .notModified:
            return .notModified
        case let .fetched(etag, lastModified, _, _):
            let hash = Self.fingerprint(fetched.1)
            run.feed = (fetched.1, etag, lastModified, hash)
            return .fetched(contentHash: hash)
        }
    }

    /// The feed that came: decoded, its pictures planned and fetched, and applied to the
    /// store in one transaction.
    private func takeDocument(_ feed: URL, now: Date, _ report: inout SyncReport) -> SyncPlanner.Outcome {
        guard let (data, etag, lastModified, hash) = run.feed else { return .failed }
        let active = run.standing.campaigns
        var document: FeedDocument
        do {
            document = try FeedDocument.decode(data, from: feed, deviceZone: .current, canDraw: options.canDraw)
        } catch {
            report = failed(feed, error, now: now, campaigns: active)
            return .failed
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
                            keys: keys, contentHash: hash)
        } catch {
            report = failed(feed, error, now: now, campaigns: active)
            return .failed
        }
        report = SyncReport(status: .ok, campaigns: document.campaigns.count,
                            warnings: document.warnings + fetchedPictures.warnings + pictureErrors.notes,
                            pictureErrors: pictureErrors.lines)
        return .done
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
