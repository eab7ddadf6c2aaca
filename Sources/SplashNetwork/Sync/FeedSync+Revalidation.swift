import FoundationEssentials
import SplashCore
import SplashServices
import SplashStorage

/// A sync's cached pictures and clips asked for again with a conditional request (their
/// `ETag` and `Last-Modified`; a `file://` one by its modification time and size): all of
/// them at a sync run by hand, otherwise when the feed changed, when the server's
/// `max-age` ran out or `no-cache` asks for it, or `revalidateAfter` after they were last
/// checked. A "not modified" answer writes nothing; a changed file is fetched beside the
/// old one, checked, its thumbnail made again, and takes the old one's place whole; a new
/// one that is refused or does not come leaves the old one on screen, with a warning.
extension FeedSync {
    /// Revalidates what is due; the warnings for the report.
    func revalidate(now: Date, feedChanged: Bool) -> [String] {
        // Files fetched in this sync are as new as they can be.
        sharedLock.lock()
        let fresh = Set(shared.fetchedValidators.keys)
        sharedLock.unlock()
        let pictures = ((try? store.activePictures()) ?? []).filter { !fresh.contains($0.key) && cache.contains(key: $0.key) }
        let videos = ((try? store.activeVideos()) ?? []).filter { $0.facts != nil && $0.problem == nil }
        var clips: [String: (url: URL, campaigns: [Campaign.ID])] = [:]
        for video in videos {
            let key = ImageCache.key(for: video.url)
            guard !fresh.contains(key), cache.contains(key: key) else { continue }
            clips[key, default: (video.url, [])].campaigns.append(video.campaignID)
        }
        // Only the files still in use are remembered as checked.
        let inUse = Set(pictures.map(\.key)).union(clips.keys)
        memory.lastChecked = memory.lastChecked.filter { inUse.contains($0.key) || fresh.contains($0.key) }
        guard !pictures.isEmpty || !clips.isEmpty else { return [] }
        let known = (try? store.validators(forKeys: pictures.map(\.key) + Array(clips.keys))) ?? [:]
        let isDue = { [revalidateAll = options.revalidateAll, revalidateAfter = options.revalidateAfter, checked = memory.lastChecked] (key: String, url: URL) -> Bool in
            // A local file costs a stat to check.
            url.isFileURL || FileValidators.isDue(known[key], lastChecked: checked[key], now: now, every: revalidateAfter,
                                                  feedChanged: feedChanged, byHand: revalidateAll)
        }
        // Room made for a changed picture never takes what an active campaign needs.
        let needed = Set(pictures.map(\.key)).union(clips.keys).union(fresh)
        return revalidatePictures(pictures.filter { isDue($0.key, $0.url) }, known: known, keeping: needed, now: now)
            + revalidateClips(clips.filter { isDue($0.key, $0.value.url) }, known: known, now: now)
    }

    /// Keeps the validators a file of this sync came with.
    func keep(_ validators: FileValidators, for key: String) {
        sharedLock.lock()
        shared.fetchedValidators[key] = validators
        sharedLock.unlock()
    }

    /// Writes the validators of the files fetched in this sync, in one transaction (a sync
    /// that fetched nothing writes nothing); a warning when they could not be.
    func keepValidators() -> [String] {
        sharedLock.lock()
        let fetched = shared.fetchedValidators
        shared.fetchedValidators = [:]
        sharedLock.unlock()
        guard !fetched.isEmpty else { return [] }
        do {
            try store.noteValidators(fetched, isCached: { cache.contains(key: $0) })
            return []
        } catch {
            // Without them, these files are fetched again in full at their next check.
            return ["the cached files' validators were not kept: \(error.explained)"]
        }
    }

    private func revalidatePictures(_ due: [(key: String, url: URL)], known: [String: FileValidators], keeping needed: Set<String>,
                                    now: Date) -> [String] {
        guard !due.isEmpty else { return [] }
        var room = Room(cap: cacheMaxBytes, used: cache.usage())
        // Asked with what is known; a picture cached before validators were kept is fetched whole.
        let fetched = fetchAll(due, room: &room, keeping: needed, now: now, asking: known)
        var images: [Campaign.ID: CampaignStore.ImageStatus] = [:]
        var warnings: [String] = []
        var unchecked = 0
        for picture in due {
            guard let outcome = fetched.outcomes[picture.key] else { continue }
            let address = picture.url.publicAddress
            switch outcome.status {
            case _ where outcome.unchanged:
                memory.lastChecked[picture.key] = now
            case .cached:
                // Changed: its campaigns get the new thumbnail (and the animation's facts).
                memory.lastChecked[picture.key] = now
                run.replaced.append(address)
                for id in (try? store.campaigns(withImageKey: picture.key)) ?? [] { images[id] = outcome.status }
            case .refused(let reason):
                memory.lastChecked[picture.key] = now
                warnings.append("picture \(address) changed on its server, but the new one is refused: \(reason); "
                                + "the one cached before is still shown")
            case .waiting(let reason):
                unchecked += 1
                if unchecked <= 3 {
                    warnings.append("picture \(address) not checked for a change: \(reason); the one cached before is "
                                    + "still shown, and the next sync asks again")
                }
            }
        }
        if unchecked > 3 { warnings.append("\(unchecked - 3) more cached pictures not checked for a change") }
        guard !images.isEmpty else { return warnings }
        do {
            try store.updateImages(images)
        } catch {
            warnings.append("changed pictures fetched but not noted: \(error.explained)")
        }
        return warnings + evict(now: now)
    }

    private func revalidateClips(_ due: [String: (url: URL, campaigns: [Campaign.ID])], known: [String: FileValidators],
                                 now: Date) -> [String] {
        guard !due.isEmpty else { return [] }
        var statuses: [Campaign.ID: CampaignStore.VideoStatus] = [:]
        var keys: [Campaign.ID: String] = [:]
        var warnings: [String] = []
        for (key, clip) in due.sorted(by: { $0.key < $1.key }) {
            // The new clip takes the old one's place: the room it needs is what is left and the old one's.
            let old = Self.size(of: cache.path(forKey: key))
            let room = min(videoMaxBytes, cacheMaxBytes - cache.usage() + old)
            let address = clip.url.publicAddress
            let time = secondsLeft()
            guard time >= 1 else {
                warnings.append("video \(address) not checked for a change: \(budgetSpent); the one cached before is still played")
                continue
            }
            let downloader = VideoDownloader(cache: cache, like: fetcher, maxBytes: videoMaxBytes, seconds: time)
            let (outcome, validators) = downloader.download(clip.url, as: key, room: room, asking: known[key], at: now)
            switch outcome {
            case nil:
                memory.lastChecked[key] = now
            case let .cached(_, facts, thumbnail)?:
                memory.lastChecked[key] = now
                run.replaced.append(address)
                if let validators { keep(validators, for: key) }
                for id in clip.campaigns {
                    statuses[id] = .cached(facts, thumbnail: thumbnail)
                    keys[id] = key
                }
            case .refused(let reason)?:
                memory.lastChecked[key] = now
                warnings.append("video \(address) changed on its server, but the new one is not played: \(reason); "
                                + "the one cached before is still played")
            case .unavailable(let reason)?:
                warnings.append("video \(address) not checked for a change: \(reason); the one cached before is still "
                                + "played, and the next sync asks again")
            case .noRoom?:
                warnings.append("video \(address) changed on its server, but the new one does not fit: "
                                + "\(ImageCache.fullMessage); the one cached before is still played")
            }
        }
        guard !statuses.isEmpty else { return warnings }
        do {
            try store.updateVideos(statuses, keys: keys)
        } catch {
            warnings.append("changed clips fetched but not noted: \(error.explained)")
        }
        return warnings + evict(now: now)
    }
}
