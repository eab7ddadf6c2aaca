import FoundationEssentials

/// The catalog as the database has it: changes made by other writers (the network
/// process, a hand-run `splashboard sync`, `cache clear`) taken before the next splash, and
/// a show's picture found gone or broken before anything was recorded.
extension Kiosk {
    /// Takes the catalog another writer left in the database. A campaign whose cached
    /// picture has gone since (`cache clear`, a hand in the folder) is fetched again at once.
    static func catalogChanged(_ state: inout KioskState, _ catalog: [CatalogEntry], message: String?,
                               screen: FeedScreen?, _ now: Instant) -> [KioskEffect] {
        let hadPicture = Set(state.catalog.filter { $0.imagePath != nil }.map(\.campaign.id))
        replaceCatalog(&state, with: catalog, message: message)
        var effects = takeFeedScreen(&state, screen, now)
        let lost = state.catalog.contains {
            guard hadPicture.contains($0.campaign.id), case .waiting = $0.picture else { return false }
            return true
        }
        if lost { effects += fetchAgain(&state) }
        return effects
    }

    /// A show's picture did not open (`gone`) or decode, so nothing was recorded: the
    /// campaign waits for its picture (gone: fetched again at once) or is refused (broken),
    /// said once per picture, and the splash is chosen again.
    static func pictureUnusable(_ state: inout KioskState, campaignID: Campaign.ID, path: String, _ trouble: PictureTrouble,
                                _ now: Instant) -> [KioskEffect] {
        guard case .splash(let splash) = state.scene, splash.campaignID == campaignID, splash.imagePath == path else {
            return []
        }
        let gone = trouble == .gone
        let reason = trouble.reason
        var effects: [KioskEffect] = []
        if state.failedImages.insert(path).inserted {
            let portraitOnly = state.catalog.contains { $0.portraitPath == path } && !state.catalog.contains { $0.imagePath == path }
            let next = portraitOnly ? "no show counted; its campaign's picture is shown instead" + (gone ? ", and it is fetched again" : "")
                : gone ? "no show counted; it is fetched again" : "no show counted; the campaign is not shown"
            effects.append(.emit(.error(message: "cannot show image \(path): \(reason); \(next)")))
        }
        for i in state.catalog.indices {
            // A picture for portrait screens that will not open is left out (a gone one is
            // fetched again): its campaign's picture is shown instead.
            if state.catalog[i].portraitPath == path { state.catalog[i].portraitPath = nil }
            if state.catalog[i].imagePath == path {
                state.catalog[i].picture = gone ? .waiting(CatalogEntry.notCached) : .refused(reason, path: path)
            }
        }
        if gone { effects += fetchAgain(&state) }
        return effects + enterSplash(&state, now)
    }

    /// A sync now, unless one is in flight (it fetches what is missing) or the kiosk has
    /// not started its background work yet.
    static func fetchAgain(_ state: inout KioskState) -> [KioskEffect] {
        guard state.hasStarted, !state.sync.running else { return [] }
        state.sync.running = true
        return [.fetchFeed]
    }

    /// A sync finished (`feedFetched`, or one done before the start): its schedule goes on
    /// from `now`, its catalog is taken, and what it found is said.
    static func feedFetched(_ state: inout KioskState, _ report: SyncReport, catalog: [CatalogEntry]?, message: String?,
                            screen: FeedScreen?, _ now: Instant) -> [KioskEffect] {
        state.sync.finished(report.status, at: now.uptime)
        var screenEffects: [KioskEffect] = []
        if let catalog {
            replaceCatalog(&state, with: catalog, message: message)
            screenEffects = takeFeedScreen(&state, screen, now)
        }
        var effects: [KioskEffect] = report.warnings.map { .emit(.warning(message: $0)) }
        effects += report.pictureErrors.map { .emit(.error(message: $0)) }
        if let error = report.error { effects.append(.emit(.error(message: error))) }
        effects.append(.emit(.sync(status: report.status, campaigns: report.campaigns, error: report.error,
                                   ms: report.milliseconds, reason: report.failure)))
        return effects + screenEffects
    }

    /// The first sync: the one done before the start when there was one (taken now, as the
    /// sync it is), else asked for.
    static func firstSync(_ state: inout KioskState, _ now: Instant) -> [KioskEffect] {
        guard let early = state.earlySync else { return [.fetchFeed] }
        state.earlySync = nil
        return feedFetched(&state, early.report, catalog: early.catalog, message: early.message, screen: early.screen, now)
    }
}
