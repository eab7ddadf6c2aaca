import FoundationEssentials

/// The operator view within the kiosk: opening it (a splash on the screen ends) and
/// closing it (back to a detail screen), what its own rules' outcomes (`OperatorViewRules`)
/// come to — the events said, the reads asked for — and the view as a scene. Nothing here
/// changes a count; a show the view interrupts ends in the ledger.
extension Kiosk {
    /// Opens the operator view (a splash on the screen ends, by `operator_view`) or closes it,
    /// back to the detail screen of the campaign that was last shown. On a campaign's
    /// page the same gestures go back to the library.
    static func toggleOperatorView(_ state: inout KioskState, _ now: Instant) -> [KioskEffect] {
        switch state.scene {
        case .operator:
            return operatorOutcome(&state, OperatorViewRules.toggle(&state.operatorView), now)
        case .splash(let splash):
            // A show the operator view ends is its own reason in the ledger, not a tap.
            let effects = endShow(&state, splash, by: .operatorView, now)
            return effects + openOperatorView(&state, returnTo: splash.campaignID, now)
        case .detail(let detail):
            return openOperatorView(&state, returnTo: detail.campaignID, now)
        case .starting:
            return []
        }
    }

    static func openOperatorView(_ state: inout KioskState, returnTo: Campaign.ID?, _ now: Instant) -> [KioskEffect] {
        OperatorViewRules.open(&state.operatorView, returnTo: returnTo, now)
        let scene = operatorScene(state, now)
        state.scene = .operator(scene)
        return [.emit(.operatorView(open: true)),
                .emit(.operatorPage(1, of: scene.pageCount, campaigns: scene.tiles.map(\.id))),
                .loadOperatorInfo(thumbnailsOf: scene.tiles.map(\.id))]
    }

    /// A finger or button let go in the view, from where it went down.
    static func operatorRelease(_ state: inout KioskState, from start: Point, to end: Point, _ now: Instant) -> [KioskEffect] {
        let layout = OperatorLayout(screen: state.screen)
        let tiles: [OperatorTile] = if case .operator(let view) = state.scene { view.tiles } else { [] }
        let outcome = OperatorViewRules.release(&state.operatorView, from: start, to: end, screen: state.screen,
                                                pages: layout.pages(for: state.catalog.count), card: { point in
            layout.slot(at: point).flatMap { $0 < tiles.count ? tiles[$0].id : nil }
        }, now)
        return operatorOutcome(&state, outcome, now)
    }

    /// A key in the view.
    static func operatorKey(_ state: inout KioskState, _ key: Key, _ now: Instant) -> [KioskEffect] {
        let pages = OperatorLayout(screen: state.screen).pages(for: state.catalog.count)
        return operatorOutcome(&state, OperatorViewRules.key(&state.operatorView, key, pages: pages, now), now)
    }

    /// What an outcome of the view's own rules comes to: a page turned is said with its
    /// cards and their thumbnails read; a campaign's page has its shows read; a view that
    /// closes goes back to the detail screen it came from.
    static func operatorOutcome(_ state: inout KioskState, _ outcome: OperatorViewRules.Outcome,
                                _ now: Instant) -> [KioskEffect] {
        switch outcome {
        case .nothing:
            return []
        case .turned(let page):
            let scene = operatorScene(state, now)
            return [.emit(.operatorPage(page + 1, of: scene.pageCount, campaigns: scene.tiles.map(\.id))),
                    .loadOperatorInfo(thumbnailsOf: scene.tiles.map(\.id))]
        case .openedCampaign(let id):
            return [.loadCampaignShows(campaignID: id)]
        case .close:
            return [.emit(.operatorView(open: false))] + enterDetail(&state, campaignID: state.operatorView.returnTo, now)
        }
    }

    /// The operator view of the current state: the library's page in the view's order
    /// (`OperatorOrder`), each card with its standing, the next one marked; a campaign's
    /// page when one is open; and when the sync and the poetry panel next change.
    static func operatorScene(_ state: KioskState, _ now: Instant) -> OperatorScene {
        let context = state.ruleContext(now)
        let layout = OperatorLayout(screen: state.screen)
        let ordered = OperatorOrder.ordered(state.catalog, at: now.date, context: context)
        let pages = layout.pages(for: ordered.count)
        let page = min(state.operatorView.page, pages - 1)
        func tile(_ index: Int, _ group: OperatorOrder) -> OperatorTile {
            let entry = state.catalog[index]
            return OperatorTile(id: entry.campaign.id, title: entry.campaign.title, remaining: entry.remaining,
                                showLimit: entry.campaign.showLimit,
                                ineligibility: entry.ineligibility(at: now.date, context: context),
                                isNext: group == .next, thumbnail: state.operatorView.info?.thumbnails[entry.campaign.id],
                                eligibleAgain: CampaignRules.nextEligible(entry, after: now.date, context: context))
        }
        let tiles = ordered.dropFirst(page * layout.perPage).prefix(layout.perPage).map { tile($0.0, $0.1) }
        var campaignPage: OperatorCampaignPage?
        if let id = state.operatorView.campaign, let found = ordered.first(where: { state.catalog[$0.0].campaign.id == id }) {
            campaignPage = OperatorCampaignPage(tile: tile(found.0, found.1), campaign: state.catalog[found.0].campaign,
                                                shows: state.operatorView.shows, imagePath: state.catalog[found.0].imagePath)
            campaignPage?.video = OperatorCampaignPage.videoLine(state.catalog[found.0])
        }
        func date(_ uptime: Seconds?) -> Date? { uptime.map { now.date.addingTimeInterval($0 - now.uptime) } }
        let poetryAt = [state.poetry.upcoming.first?.at, state.poetry.reloadAt].compactMap { $0 }.min()
        return OperatorScene(tiles: tiles, info: state.operatorView.info,
                             nextSync: state.sync.running ? nil : date(state.sync.nextAt),
                             syncRunning: state.sync.running, poetrySource: state.poetry.entry.source,
                             poetryOrigin: state.poetry.entry.origin, nextPoetry: date(poetryAt), now: now.date,
                             page: page, pageCount: pages, campaignPage: campaignPage,
                             screenPower: screenSummary(of: state, now: now.date))
    }
}
