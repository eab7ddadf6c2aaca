import FoundationEssentials

/// The catalog as the database has it: changes made by other writers (the network
/// process, a hand-run `splashboard sync`, `cache clear`) taken before the next splash, and
/// a show's picture found gone or broken before anything was recorded.
extension Kiosk {
    /// Takes the catalog another writer left in the database. A campaign whose cached
    /// picture has gone since (`cache clear`, a hand in the folder) is fetched again at once.
    static func catalogChanged(_ state: inout KioskState, _ catalog: [CatalogEntry], message: String?,
                               screen: FeedScreen?, _ now: Instant) -> [KioskEffect] {
        let lost = CatalogRules.changed(&state.library, to: catalog, message: message)
        var effects = takeFeedScreen(&state, screen, now)
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
        var effects: [KioskEffect] = CatalogRules.unusable(&state.library, path: path, trouble)
            .map { [.emit(.error(message: $0))] } ?? []
        if trouble == .gone { effects += fetchAgain(&state) }
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
            CatalogRules.replace(&state.library, with: catalog, message: message)
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
