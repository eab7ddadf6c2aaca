import Glibc
import Dispatch
import FoundationEssentials
import SplashPictures
import SplashServices
import SplashCore
import SplashStorage

/// A sync's pictures fetched: a few at a time within the sync's time, each in the room the
/// cache's cap leaves (shared by the downloads in flight), hosts that did not answer
/// noted for the next sync; and, after a 304, the pictures still missing.
extension FeedSync {
    /// After a 304: fetches pictures of active campaigns that are still missing (a
    /// download that failed earlier). Writes only when one arrives.
    func retryMissingPictures(_ missing: [(key: String, url: URL)], campaigns: Int, now: Date) -> SyncReport {
        var images: [Campaign.ID: CampaignStore.ImageStatus] = [:]
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
                if case .waiting = status.status {} else { images[id] = status.status }
                pictureErrors.add(status, campaign: id)
            }
        }
        var warnings = fetched.warnings + pictureErrors.notes
        if !images.isEmpty {
            do {
                try store.updateImages(images)
            } catch {
                warnings.append("pictures fetched but not noted: \(error.explained)")
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
    final class SharedRoom: @unchecked Sendable {
        let condition = LockCondition()
        private(set) var room: Room
        var inFlight = 0

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

    static func place(_ url: URL) -> String { "\(url.host ?? ""):\(url.port ?? 0)" }

    func isUnanswered(_ url: URL) -> Bool {
        sharedLock.lock()
        defer { sharedLock.unlock() }
        return shared.unanswered.contains(Self.place(url))
    }

    func note(_ outcome: ImageDownloader.Outcome?, of url: URL) {
        sharedLock.lock()
        defer { sharedLock.unlock() }
        if case .unavailable? = outcome { shared.unanswered.insert(Self.place(url)) } else { shared.unanswered.remove(Self.place(url)) }
    }

    /// Downloads `pictures` into the cache, `parallel` at a time, starting none after
    /// `options.pictureSeconds`: those not started wait for the next sync, said in one warning.
    /// `asking` holds the validators of cached pictures asked for again (a revalidation):
    /// those answered "not modified" come back `unchanged`.
    func fetchAll(_ pictures: [(key: String, url: URL)], room: inout Room, keeping wanted: Set<String>, now: Date,
                  asking: [String: FileValidators] = [:]) -> (outcomes: [String: PictureOutcome], warnings: [String]) {
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
        // Started within `options.pictureSeconds`, and within what is left of the sync's run.budget.
        let deadline = run.budget.pictureDeadline(from: clock.uptime(), share: options.pictureSeconds)
        // Pictures are taken in the feed's order, each with its room: when room is short, the
        // earlier ones get it.
        let picking = Lock()
        let recording = Lock()
        var next = 0
        // A picture that did not fit in the share it got while others were in flight is
        // tried again at the end with all the room there is: only then is the cache full.
        var again: [(key: String, url: URL)] = []
        var outcomes: [String: PictureOutcome] = [:]
        let group = DispatchGroup()
        let downloader = ImageDownloader(cache: cache, fetcher: fetcher)
        for index in 0..<min(Self.parallel, pictures.count) {
            group.enter()
            SerialWorker.detached(name: "splashboard.picture-\(index)") {
                defer { group.leave() }
                while true {
                    picking.lock()
                    guard next < pictures.count, self.clock.uptime() < deadline else {
                        picking.unlock()
                        return
                    }
                    let picture = pictures[next]
                    next += 1
                    let reserved = shared.reserve()
                    picking.unlock()
                    let status: PictureOutcome
                    if let reserved {
                        let outcome = self.download(picture, reserved: reserved, with: downloader, in: shared,
                                                    asking: asking[picture.key], now: now)
                        if outcome == .noRoom && !reserved.alone {
                            recording.lock()
                            again.append(picture)
                            recording.unlock()
                            continue
                        }
                        status = Self.status(of: outcome, url: picture.url)
                    } else {
                        status = PictureOutcome(.waiting(ImageCache.fullReason), "picture not cached yet: \(ImageCache.fullMessage)")
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
            guard clock.uptime() < deadline else { break }
            guard let reserved = shared.reserve() else {
                outcomes[picture.key] = PictureOutcome(.waiting(ImageCache.fullReason), "picture not cached yet: \(ImageCache.fullMessage)")
                continue
            }
            let outcome = download(picture, reserved: reserved, with: downloader, in: shared, asking: asking[picture.key], now: now)
            outcomes[picture.key] = Self.status(of: outcome, url: picture.url)
        }
        room = shared.room
        let late = pictures.filter { outcomes[$0.key] == nil }
        guard !late.isEmpty else { return (outcomes, []) }
        let reason = "not fetched in this sync's \(Int(options.pictureSeconds)) s for pictures; the next sync fetches it"
        for picture in late { outcomes[picture.key] = PictureOutcome(.waiting(reason), nil) }
        return (outcomes, ["\(late.count) of \(pictures.count) pictures not fetched: the sync's \(Int(options.pictureSeconds)) s for "
                           + "pictures ran out (hosts that answer slowly or not at all); the next sync fetches them"])
    }

    /// Downloads one picture into the room it took, gives back what it did not use (the
    /// cache is full only when it had all the room there was), notes whether its host
    /// answered and keeps the validators it came with. A cached picture asked for again
    /// (`revalidating`) is nil when unchanged; when changed, the new file takes the old
    /// one's place, and only the difference counts against the room.
    func download(_ picture: (key: String, url: URL), reserved: (bytes: Int, alone: Bool),
                  with downloader: ImageDownloader, in shared: SharedRoom, asking known: FileValidators?,
                  now: Date) -> ImageDownloader.Outcome? {
        let before = Self.size(of: cache.path(forKey: picture.key))
        let (outcome, validators) = downloader.download(picture.url, as: picture.key, room: reserved.bytes,
                                                        asking: known, at: now)
        var used = 0
        if case .cached(let path, _, _)? = outcome {
            used = Self.size(of: path) - before
            if let validators { keep(validators, for: picture.key) }
        }
        shared.settle(reserved: reserved.bytes, used: used, noRoom: outcome == .noRoom && reserved.alone)
        note(outcome, of: picture.url)
        return outcome
    }

    /// A file's size in bytes; 0 when there is none.
    static func size(of path: String) -> Int {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : 0
    }

    /// A download's outcome as a picture's status and its line for the report (nil: a
    /// cached picture asked for again has not changed).
    static func status(of outcome: ImageDownloader.Outcome?, url: URL) -> PictureOutcome {
        guard let outcome else { return PictureOutcome(.cached(thumbnail: nil), nil, unchanged: true) }
        switch outcome {
        case let .cached(_, thumbnail, motion):
            if case .stillBecause(let why, _) = motion {
                return PictureOutcome(.cached(thumbnail: thumbnail, motion: motion.facts),
                                      "picture \(url.publicAddress) is shown still, its animation is not played: \(why)")
            }
            return PictureOutcome(.cached(thumbnail: thumbnail, motion: motion.facts), nil)
        case .refused(let reason):
            return PictureOutcome(.refused(reason), "picture \(url.publicAddress) refused: \(reason)")
        case .unavailable(let reason):
            return PictureOutcome(.waiting(reason), "picture not cached yet: \(reason)")
        case .noRoom:
            return PictureOutcome(.waiting(ImageCache.fullReason), "picture not cached yet: \(ImageCache.fullMessage)")
        }
    }

    /// The status of a picture already in the cache (another campaign uses it, or an
    /// earlier sync fetched it): its thumbnail made from the cached file when the campaign
    /// has none.
    func cachedStatus(_ url: URL, needsThumbnail: Bool) -> PictureOutcome {
        guard needsThumbnail else { return PictureOutcome(.cached(thumbnail: nil), nil) }
        // A cached picture passed this check when it came; without a thumbnail the
        // operator view shows a placeholder.
        let checked = try? ImageDownloader(cache: cache, fetcher: fetcher).check(cache.path(forKey: ImageCache.key(for: url)))
        return PictureOutcome(.cached(thumbnail: checked?.thumbnail, motion: checked?.motion.facts), nil)
    }
}
