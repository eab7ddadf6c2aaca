import Foundation
import SplashPictures
import SplashServices
import SplashCore

/// One sync of the campaign feed: a conditional fetch, decoding, prefetching every new
/// picture into the cache, then applying the feed to the store in one transaction.
/// A 304 (or an unchanged file) writes nothing; a bad feed changes nothing.
public final class FeedSync {
    public static let feedLimit = 1 << 20

    let store: CampaignStore
    let cache: ImageCache
    let fetcher: Fetcher
    let cacheMaxBytes: Int
    /// Seconds a sync may spend starting picture downloads: what is not started by then
    /// waits for the next sync (with one warning), so that silent picture hosts cannot hold
    /// a sync past the display's patience. Those started finish within their own limits.
    public var pictureSeconds: TimeInterval = 60
    /// Pictures downloaded at once.
    static let parallel = 4
    /// Why the device's database cannot be written, when it cannot (the store is in
    /// memory): every sync then fails with it, as what the operator must fix.
    public var unwritable: String?

    public init(store: CampaignStore, cache: ImageCache, fetcher: Fetcher = Fetcher(), cacheMaxBytes: Int = 256 << 20) {
        self.store = store
        self.cache = cache
        self.fetcher = fetcher
        self.cacheMaxBytes = cacheMaxBytes
    }

    /// Syncs `feed` at wall-clock `now`; the report says how long it took.
    public func sync(_ feed: URL, now: Date) -> SyncReport {
        let started = DispatchTime.now().uptimeNanoseconds
        var report = run(feed, now: now)
        report.milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        return report
    }

    private func run(_ feed: URL, now: Date) -> SyncReport {
        // Pictures that cannot be cached would each fail with a temporary file's name: say
        // once what is wrong with the folder instead.
        if let unwritable {
            return SyncReport(status: .error, campaigns: 0,
                              error: unwritable + "; the network process must be restarted once it is fixed", failure: .storage)
        }
        if let problem = FolderAccess.problem(cache.folder, role: "cache") {
            return SyncReport(status: .error, campaigns: (try? store.activeCount()) ?? 0,
                              error: problem + "; new pictures cannot be cached until then", failure: .storage)
        }
        let state: CampaignStore.FeedState
        do {
            state = try store.feedState(for: feed)
        } catch {
            // The error is what the report says; the count is only what it shows beside it.
            return SyncReport(status: .error, campaigns: (try? store.activeCount()) ?? 0, error: error.localizedDescription)
        }
        // What an unchanged feed is answered with is read while the request is in flight.
        let standing = UnchangedFeedAnswer()
        let reading = DispatchGroup()
        reading.enter()
        SerialWorker.detached(name: "splashboard.sync-read") { [store, cache] in
            // Only what a 304 is answered with: a failed read leaves nothing to retry this time,
            // and the next sync reads again.
            standing.campaigns = (try? store.activeCount()) ?? 0
            standing.missing = ((try? store.activePictures()) ?? []).filter { !cache.contains(key: $0.key) }
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
            return retryMissingPictures(standing.missing, campaigns: active, now: now)
        case let .fetched(etag, lastModified, _):
            let document: FeedDocument
            do {
                document = try FeedDocument.decode(fetched.1, from: feed, deviceZone: .current)
            } catch {
                return failed(feed, error, now: now, campaigns: active)
            }
            var pictureErrors = PictureProblems()
            // What is known only spares fetching a picture refused before; unread, it is fetched.
            let known = Dictionary(((try? store.campaigns(includeInactive: true, thumbnails: false)) ?? [])
                .map { ($0.campaign.id, $0) }, uniquingKeysWith: { a, _ in a })
            var images: [String: CampaignStore.ImageStatus] = [:]
            // One picture shared by many campaigns is fetched and thumbnailed once.
            var outcomes: [String: (CampaignStore.ImageStatus, String?)] = [:]
            let keys = PictureKeys()
            // The cap holds during the sync: before new pictures come, those nobody needs
            // any more go (not eligible now, not in this feed); each new picture may then
            // take only the room left, and when there is none it is not fetched.
            var room = Room(cap: cacheMaxBytes, used: cache.usage())
            let wanted = Set(document.campaigns.map { keys.of($0.picURL).key })
            // What needs a download is fetched a few at a time, within the sync's time.
            var plan: [(campaign: Campaign, key: String)] = []
            var downloads: [(key: String, url: URL)] = []
            // Pictures on hosts that did not answer at an earlier sync come after the others:
            // silent hosts cannot take every sync's time for pictures.
            var retries: [(key: String, url: URL)] = []
            for campaign in document.campaigns {
                let key = keys.of(campaign.picURL).key
                if let old = known[campaign.id], old.imageKey == key, old.imageProblem != nil, !cache.contains(key: key) {
                    continue  // refused before, same picture: not fetched again
                }
                plan.append((campaign, key))
                guard outcomes[key] == nil, !downloads.contains(where: { $0.key == key }),
                      !retries.contains(where: { $0.key == key }) else { continue }
                if cache.contains(key: key) {
                    // Unread, a thumbnail is made again: the cost of a failed read is one thumbnail.
                    let hasThumbnail = ((try? store.thumbnail(forImageKey: key)) ?? nil) != nil
                    outcomes[key] = cachedStatus(campaign.picURL, needsThumbnail: !hasThumbnail)
                } else if isUnanswered(campaign.picURL) {
                    retries.append((key, campaign.picURL))
                } else {
                    downloads.append((key, campaign.picURL))
                }
            }
            let fetchedPictures = fetchAll(downloads + retries, room: &room, keeping: wanted, now: now)
            outcomes.merge(fetchedPictures.outcomes) { a, _ in a }
            var given = Set<String>()
            for (campaign, key) in plan {
                guard let done = outcomes[key] else { continue }
                // Thumbnails are kept per picture: the first campaign with it stores it.
                let status: (CampaignStore.ImageStatus, String?)
                if given.contains(key), case .cached = done.0 { status = (.cached(thumbnail: nil), nil) } else { status = done }
                given.insert(key)
                images[campaign.id] = status.0
                pictureErrors.add(status, campaign: campaign.id)
            }
            do {
                try store.apply(document, from: feed, etag: etag, lastModified: lastModified, images: images, at: now,
                                keys: keys, contentHash: Self.fingerprint(fetched.1))
            } catch {
                return failed(feed, error, now: now, campaigns: active)
            }
            return SyncReport(status: .ok, campaigns: document.campaigns.count,
                              warnings: document.warnings + fetchedPictures.warnings + evict(now: now),
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

    /// The cache's room during one sync: its cap and what is used, counted as pictures come.
    struct Room {
        var cap: Int
        var used: Int
        /// Whether room was made already this sync: once is enough (what nobody needs is the
        /// same for every picture of the sync), and each try reads the catalog and the folder.
        var madeRoom = false
        /// A picture did not fit after room was made: the rest of the sync fetches no new
        /// picture (each would be cut off at the room left, costing its bytes for nothing).
        var full = false
        var left: Int { full ? 0 : max(0, cap - used) }
    }

    /// The pictures a sync could not cache, one line each, except those that wait for room
    /// in the cache: one line says how many (a feed of 30,000 pictures would otherwise
    /// write 30,000 lines to the log at every sync).
    struct PictureProblems {
        private var each: [String] = []
        private var waitingForRoom: [String] = []

        mutating func add(_ status: (CampaignStore.ImageStatus, String?), campaign id: String) {
            if case .waiting(ImageCache.fullReason) = status.0 {
                waitingForRoom.append(id)
            } else if let problem = status.1 {
                each.append("campaign \"\(id)\": \(problem)")
            }
        }

        var lines: [String] {
            guard let first = waitingForRoom.first else { return each }
            if waitingForRoom.count == 1 { return each + ["campaign \"\(first)\": picture not cached yet: \(ImageCache.fullMessage)"] }
            let named = waitingForRoom.prefix(3).map { "\"\($0)\"" }.joined(separator: ", ")
            return each + ["\(waitingForRoom.count) campaigns (\(named)\(waitingForRoom.count > 3 ? ", …" : "")): "
                + "pictures not cached yet: \(ImageCache.fullMessage)"]
        }
    }

    /// The stored campaigns a sync starts from, read beside the request.
    private final class UnchangedFeedAnswer: @unchecked Sendable {
        var campaigns = 0
        var missing: [(key: String, url: URL)] = []
    }

    private func failed(_ feed: URL, _ error: Error, now: Date, campaigns: Int) -> SyncReport {
        // Kept in the database and shown in the operator view, on the public screen: the
        // feed's address without its query or user part, wherever the error names it.
        let reason = error.localizedDescription.replacingOccurrences(of: feed.absoluteString, with: feed.publicAddress)
        let message = "feed \(feed.publicAddress): \(reason)"
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
            case .connectionFailed, .transport, .guardBusy: return .connect
            case .timedOut: return .timeout
            case .tls: return .tls
            case .status: return .status
            case .insideAddress: return .addressRule
            case .tooLarge, .tooManyRedirects, .insecureRedirect, .unsupportedScheme, .fileMissing: return .other
            }
        case is FeedError: return .invalidFeed
        case is StoreError: return .storage
        default: return .other
        }
    }

    /// After a 304: fetches pictures of active campaigns that are still missing (a
    /// download that failed earlier). Writes only when one arrives.
    private func retryMissingPictures(_ missing: [(key: String, url: URL)], campaigns: Int, now: Date) -> SyncReport {
        var images: [String: CampaignStore.ImageStatus] = [:]
        var pictureErrors = PictureProblems()
        // Nothing missing (the usual 304): nothing read, nothing written.
        guard !missing.isEmpty else { return SyncReport(status: .notModified, campaigns: campaigns) }
        var room = Room(cap: cacheMaxBytes, used: cache.usage())
        // Unread, fewer pictures are kept while room is made; eligible ones are still protected.
        let wanted = Set((try? store.activePictures())?.map(\.key) ?? [])
        let fetched = fetchAll(missing, room: &room, keeping: wanted, now: now)
        for picture in missing {
            guard let status = fetched.outcomes[picture.key] else { continue }
            // Unread, the picture is cached but not noted; the next 304 notes it.
            for id in (try? store.campaigns(withImageKey: picture.key)) ?? [] {
                // Still waiting is not written: a 304 writes only what arrived.
                if case .waiting = status.0 {} else { images[id] = status.0 }
                pictureErrors.add(status, campaign: id)
            }
        }
        var warnings = fetched.warnings
        if !images.isEmpty {
            do {
                try store.updateImages(images)
            } catch {
                warnings.append("pictures fetched but not noted: \(error.localizedDescription)")
            }
            // Pictures arrived: the cache may be over its cap now, as after a full sync.
            warnings += evict(now: now)
        }
        return SyncReport(status: .notModified, campaigns: campaigns, warnings: warnings, pictureErrors: pictureErrors.lines)
    }

    /// The cache's room shared by the downloads of one sync: each takes what it may use
    /// before it starts (a whole picture's worth, or what is left) and gives back what it
    /// did not use; with no room left, a download waits for those in flight to give some
    /// back, and gives up only when none is in flight.
    private final class SharedRoom: @unchecked Sendable {
        private let condition = NSCondition()
        private(set) var room: Room
        private var inFlight = 0

        init(_ room: Room) { self.room = room }

        /// The bytes a download may take, and whether that is all the room there is (no
        /// other download in flight holds any); nil when the cache has no room left.
        func reserve() -> (bytes: Int, alone: Bool)? {
            condition.lock()
            defer { condition.unlock() }
            while room.left == 0, !room.full, inFlight > 0 { condition.wait() }
            guard room.left > 0 else { return nil }
            let taken = min(room.left, ImageDownloader.imageLimit)
            let alone = inFlight == 0
            room.used += taken
            inFlight += 1
            return (taken, alone)
        }

        func settle(reserved: Int, used: Int, noRoom: Bool) {
            condition.lock()
            room.used += used - reserved
            if noRoom, room.madeRoom { room.full = true }
            inFlight -= 1
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Hosts (host:port) whose last picture could not be fetched (no answer, no connection).
    private var unanswered = Set<String>()
    private let unansweredLock = NSLock()

    private static func place(_ url: URL) -> String { "\(url.host ?? ""):\(url.port ?? 0)" }

    private func isUnanswered(_ url: URL) -> Bool {
        unansweredLock.lock()
        defer { unansweredLock.unlock() }
        return unanswered.contains(Self.place(url))
    }

    private func note(_ outcome: ImageDownloader.Outcome, of url: URL) {
        unansweredLock.lock()
        defer { unansweredLock.unlock() }
        if case .unavailable = outcome { unanswered.insert(Self.place(url)) } else { unanswered.remove(Self.place(url)) }
    }

    /// Downloads `pictures` into the cache, `parallel` at a time, starting none after
    /// `pictureSeconds`: those not started wait for the next sync, said in one warning.
    func fetchAll(_ pictures: [(key: String, url: URL)], room: inout Room, keeping wanted: Set<String>, now: Date)
        -> (outcomes: [String: (CampaignStore.ImageStatus, String?)], warnings: [String]) {
        guard !pictures.isEmpty else { return ([:], []) }
        if room.left < ImageDownloader.imageLimit, !room.madeRoom {
            // Make room from what nobody needs, down to a whole picture's worth below the cap.
            // Fails closed (nothing removed): the pictures then wait for room, as the report says.
            room.madeRoom = true
            _ = try? store.evict(cache, toFit: max(0, cacheMaxBytes - ImageDownloader.imageLimit), now: now,
                                 alsoKeeping: wanted)
            room.used = cache.usage()
        }
        let shared = SharedRoom(room)
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, pictureSeconds) * 1e9)
        // Pictures are taken in the feed's order, each with its room: when room is short, the
        // earlier ones get it.
        let picking = NSLock()
        let recording = NSLock()
        var next = 0
        // A picture that did not fit in the share it got while others were in flight is
        // tried again at the end with all the room there is: only then is the cache full.
        var again: [(key: String, url: URL)] = []
        var outcomes: [String: (CampaignStore.ImageStatus, String?)] = [:]
        let group = DispatchGroup()
        let downloader = ImageDownloader(cache: cache, fetcher: fetcher)
        for index in 0..<min(Self.parallel, pictures.count) {
            group.enter()
            SerialWorker.detached(name: "splashboard.picture-\(index)") {
                defer { group.leave() }
                while true {
                    picking.lock()
                    guard next < pictures.count, DispatchTime.now().uptimeNanoseconds < deadline else {
                        picking.unlock()
                        return
                    }
                    let picture = pictures[next]
                    next += 1
                    let reserved = shared.reserve()
                    picking.unlock()
                    let status: (CampaignStore.ImageStatus, String?)
                    if let reserved {
                        let outcome = self.download(picture, reserved: reserved, with: downloader, in: shared)
                        if outcome == .noRoom && !reserved.alone {
                            recording.lock()
                            again.append(picture)
                            recording.unlock()
                            continue
                        }
                        status = Self.status(of: outcome, url: picture.url)
                    } else {
                        status = (.waiting(ImageCache.fullReason), "picture not cached yet: \(ImageCache.fullMessage)")
                    }
                    recording.lock()
                    outcomes[picture.key] = status
                    recording.unlock()
                }
            }
        }
        group.wait()
        for picture in again {
            // Past the sync's time these wait as the late ones do; with no room, the cache is full.
            guard DispatchTime.now().uptimeNanoseconds < deadline else { break }
            guard let reserved = shared.reserve() else {
                outcomes[picture.key] = (.waiting(ImageCache.fullReason), "picture not cached yet: \(ImageCache.fullMessage)")
                continue
            }
            let outcome = download(picture, reserved: reserved, with: downloader, in: shared)
            outcomes[picture.key] = Self.status(of: outcome, url: picture.url)
        }
        room = shared.room
        let late = pictures.filter { outcomes[$0.key] == nil }
        guard !late.isEmpty else { return (outcomes, []) }
        let reason = "not fetched in this sync's \(Int(pictureSeconds)) s for pictures; the next sync fetches it"
        for picture in late { outcomes[picture.key] = (.waiting(reason), nil) }
        return (outcomes, ["\(late.count) of \(pictures.count) pictures not fetched: the sync's \(Int(pictureSeconds)) s for "
                           + "pictures ran out (hosts that answer slowly or not at all); the next sync fetches them"])
    }

    /// Downloads one picture into the room it took, gives back what it did not use (the
    /// cache is full only when it had all the room there was) and notes whether its host
    /// answered.
    private func download(_ picture: (key: String, url: URL), reserved: (bytes: Int, alone: Bool),
                          with downloader: ImageDownloader, in shared: SharedRoom) -> ImageDownloader.Outcome {
        let outcome = downloader.download(picture.url, as: picture.key, room: reserved.bytes)
        var used = 0
        if case .cached(let path, _) = outcome {
            var st = stat()
            if stat(path, &st) == 0 { used = Int(st.st_size) }
        }
        shared.settle(reserved: reserved.bytes, used: used, noRoom: outcome == .noRoom && reserved.alone)
        note(outcome, of: picture.url)
        return outcome
    }

    /// A download's outcome as a picture's status and its line for the report.
    static func status(of outcome: ImageDownloader.Outcome, url: URL) -> (CampaignStore.ImageStatus, String?) {
        switch outcome {
        case .cached(_, let thumbnail):
            return (.cached(thumbnail: thumbnail), nil)
        case .refused(let reason):
            return (.refused(reason), "picture \(url.absoluteString) refused: \(reason)")
        case .unavailable(let reason):
            return (.waiting(reason), "picture not cached yet: \(reason)")
        case .noRoom:
            return (.waiting(ImageCache.fullReason), "picture not cached yet: \(ImageCache.fullMessage)")
        }
    }

    /// The status of a picture already in the cache (another campaign uses it, or an
    /// earlier sync fetched it): its thumbnail made from the cached file when the campaign
    /// has none.
    func cachedStatus(_ url: URL, needsThumbnail: Bool) -> (CampaignStore.ImageStatus, String?) {
        guard needsThumbnail else { return (.cached(thumbnail: nil), nil) }
        // A cached picture passed this check when it came; without a thumbnail the
        // operator view shows a placeholder.
        let thumbnail = try? ImageValidator.check(cache.path(forKey: ImageCache.key(for: url))).thumbnail
        return (.cached(thumbnail: thumbnail), nil)
    }

    /// Trims the cache to its cap; a warning when it could not be (what must stay could not
    /// be read, so nothing was removed).
    private func evict(now: Date) -> [String] {
        do {
            try store.evict(cache, toFit: cacheMaxBytes, now: now)
            return []
        } catch {
            return ["image cache not trimmed to its cap: \(error.localizedDescription)"]
        }
    }
}
