import FoundationEssentials
import SplashCore
import SplashServices
import SplashStorage

/// A sync's clips: each active campaign's clip that is not cached yet (nor refused before)
/// fetched one at a time after the pictures, within the cache's cap — room is made from
/// what nobody needs first — and noted on its campaigns. A clip that will not play here is
/// a warning; its campaign shows its picture.
extension FeedSync {
    /// Fetches the clips still missing; the warnings for the report. Writes only when a clip
    /// came or was refused.
    func fetchVideos(now: Date) -> [String] {
        guard let videos = try? store.activeVideos(), !videos.isEmpty else { return [] }
        var warnings: [String] = []
        var statuses: [Campaign.ID: CampaignStore.VideoStatus] = [:]
        var keys: [Campaign.ID: String] = [:]
        var outcomes: [String: VideoDownloader.Outcome] = [:]
        let wanted = Set(((try? store.activePictures()) ?? []).map(\.key) + videos.map { ImageCache.key(for: $0.url) })
        var madeRoom = false
        for video in videos {
            let key = ImageCache.key(for: video.url)
            keys[video.campaignID] = key
            // Known: cached with its facts, or refused before (a new URL clears both) — but a clip
            // refused for its size is tried again once video-max-mb is raised above that, and
            // any at a sync run by hand.
            let retried = options.retryRefused || ClipRefusal.limitLifted(from: video.refusedLimitMB, byLimitMB: videoMaxBytes >> 20)
            if (video.problem != nil && !retried) || (video.facts != nil && cache.contains(key: key)) { continue }
            if outcomes[key] == nil {
                var left = cacheMaxBytes - cache.usage()
                if left < videoMaxBytes, !madeRoom {
                    madeRoom = true
                    _ = try? store.evict(cache, toFit: max(0, cacheMaxBytes - videoMaxBytes), now: now, alsoKeeping: wanted)
                    left = cacheMaxBytes - cache.usage()
                }
                let time = secondsLeft()
                if left <= 0 {
                    outcomes[key] = .noRoom
                } else if time < 1 {
                    outcomes[key] = .unavailable(budgetSpent)
                } else {
                    // Each clip within what is left of the sync's time.
                    let downloader = VideoDownloader(cache: cache, like: fetcher, maxBytes: videoMaxBytes, seconds: time)
                    let (outcome, validators) = downloader.download(video.url, as: key, room: left, asking: nil, at: now)
                    outcomes[key] = outcome ?? .unavailable("no answer")
                    if case .cached? = outcome, let validators { keep(validators, for: key) }
                }
            }
            let address = video.url.publicAddress
            switch outcomes[key]! {
            case let .cached(_, facts, thumbnail):
                statuses[video.campaignID] = .cached(facts, thumbnail: thumbnail)
            case .refused(let reason):
                statuses[video.campaignID] = .refused(reason)
                warnings.append("campaign \(video.campaignID): video \(address) is not played, its picture is shown "
                                + "instead: \(reason)")
            case .unavailable(let reason):
                statuses[video.campaignID] = .waiting(reason)
                warnings.append("campaign \(video.campaignID): video \(address) not cached yet (its picture is shown until it "
                                + "is; the next sync tries again): \(reason)")
            case .noRoom:
                statuses[video.campaignID] = .waiting(ImageCache.fullReason)
                warnings.append("campaign \(video.campaignID): video \(address) not cached yet: \(ImageCache.fullMessage)")
            }
        }
        do {
            try store.updateVideos(statuses, keys: keys)
        } catch {
            warnings.append("clips fetched but not noted: \(error.explained)")
        }
        if statuses.values.contains(where: { if case .cached = $0 { true } else { false } }) { warnings += evict(now: now) }
        return warnings
    }
}
