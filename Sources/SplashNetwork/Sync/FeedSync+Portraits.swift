import FoundationEssentials
import SplashCore
import SplashServices
import SplashStorage

/// A sync's pictures for portrait screens (`picUrlPortrait`): each active campaign's that is
/// not cached yet (nor refused before, unless the sync was run by hand) fetched and checked
/// as pictures are, after them, within the cache's cap and the sync's time for pictures.
/// One that is refused is noted on its campaign, whose picUrl is then shown on portrait
/// screens; one that does not come is tried again at the next sync. Cached ones are asked
/// for again with the campaigns' pictures (`revalidate`).
extension FeedSync {
    /// Fetches the pictures for portrait screens still missing; the warnings for the report.
    func fetchPortraits(now: Date) -> [String] {
        guard let portraits = try? store.activePortraits(), !portraits.isEmpty else { return [] }
        var pending: [(key: String, url: URL)] = []
        var planned = Set<String>()
        for portrait in portraits {
            let key = ImageCache.key(for: portrait.url)
            if cache.contains(key: key) || (portrait.problem != nil && !options.retryRefused) { continue }
            if planned.insert(key).inserted { pending.append((key, portrait.url)) }
        }
        guard !pending.isEmpty else { return [] }
        var room = Room(cap: cacheMaxBytes, used: cache.usage())
        let wanted = Set(((try? store.activePictures()) ?? []).map(\.key))
        let fetched = fetchAll(pending, room: &room, keeping: wanted, now: now)
        var problems: [Campaign.ID: String?] = [:]
        var warnings = fetched.warnings
        for portrait in portraits {
            guard let outcome = fetched.outcomes[ImageCache.key(for: portrait.url)] else { continue }
            let address = portrait.url.publicAddress
            switch outcome.status {
            case .cached:
                problems[portrait.campaignID] = .some(nil)
            case .refused(let reason):
                problems[portrait.campaignID] = .some(reason)
                warnings.append("campaign \(portrait.campaignID): picture for portrait screens \(address) refused, its picUrl is "
                                + "shown on them instead: \(reason)")
            case .waiting(let reason):
                warnings.append("campaign \(portrait.campaignID): picture for portrait screens \(address) not cached yet (its "
                                + "picUrl is shown on them until it is; the next sync tries again): \(reason)")
            }
        }
        do {
            try store.notePortraitProblems(problems)
        } catch {
            warnings.append("pictures for portrait screens fetched but not noted: \(error.explained)")
        }
        return warnings
    }
}
