import FoundationEssentials

/// The operator view's rules: opening and closing it, paging through the library (swipe,
/// PageUp/PageDown, the arrow keys), a campaign's own page on a tap, and the view as a
/// scene. Nothing here changes a count; a show the view interrupts ends in the ledger.
extension Kiosk {
    /// Opens the operator view (a splash on the screen ends, by `operator_view`) or closes it,
    /// back to the detail screen of the campaign that was last shown. On a campaign's
    /// page the same gestures go back to the library.
    static func toggleOperatorView(_ state: inout KioskState, _ now: Instant) -> [KioskEffect] {
        switch state.scene {
        case .operator:
            if state.operatorView.campaign != nil { return closeCampaignPage(&state) }
            return [.emit(.operatorView(open: false))] + enterDetail(&state, campaignID: state.operatorView.returnTo, now)
        case .splash(let splash):
            // A show the operator view ends is its own reason in the ledger, not a tap.
            let effects = endShow(&state, splash, by: .operatorView, now)
            state.operatorView.returnTo = splash.campaignID
            return effects + openOperatorView(&state, now)
        case .detail(let detail):
            state.operatorView.returnTo = detail.campaignID
            return openOperatorView(&state, now)
        case .starting:
            return []
        }
    }

    static func openOperatorView(_ state: inout KioskState, _ now: Instant) -> [KioskEffect] {
        state.operatorView.idleSince = now.uptime
        state.operatorView.page = 0
        state.operatorView.campaign = nil
        state.operatorView.press = nil
        let scene = operatorScene(state, now)
        state.scene = .operator(scene)
        return [.emit(.operatorView(open: true)),
                .emit(.operatorPage(1, of: scene.pageCount, campaigns: scene.tiles.map(\.id))),
                .loadOperatorInfo(thumbnailsOf: scene.tiles.map(\.id))]
    }

    /// A finger or button let go in the view: a swipe across turns the page, anything
    /// shorter is a tap (on a card: its page; on a campaign's page: back).
    static func operatorRelease(_ state: inout KioskState, from start: Point, to end: Point, _ now: Instant) -> [KioskEffect] {
        state.operatorView.idleSince = now.uptime
        let dx = end.x - start.x
        let dy = end.y - start.y
        if abs(dx) >= OperatorGesture.swipeDistance(on: state.screen), abs(dx) > abs(dy), state.operatorView.campaign == nil {
            return turnPage(&state, by: dx < 0 ? 1 : -1, now)
        }
        if state.operatorView.campaign != nil { return closeCampaignPage(&state) }
        let layout = OperatorLayout(screen: state.screen)
        guard let slot = layout.slot(at: start), case .operator(let view) = state.scene, slot < view.tiles.count else { return [] }
        let id = view.tiles[slot].id
        state.operatorView.campaign = id
        state.operatorView.shows = nil
        return [.loadCampaignShows(campaignID: id)]
    }

    /// A key in the view.
    static func operatorKey(_ state: inout KioskState, _ key: Key, _ now: Instant) -> [KioskEffect] {
        state.operatorView.idleSince = now.uptime
        switch key {
        case .escape: return toggleOperatorView(&state, now)
        case .pageDown, .right: return state.operatorView.campaign == nil ? turnPage(&state, by: 1, now) : []
        case .pageUp, .left: return state.operatorView.campaign == nil ? turnPage(&state, by: -1, now) : []
        default: return []
        }
    }

    /// The next (`by` 1) or previous (-1) page; at either end it stays.
    static func turnPage(_ state: inout KioskState, by step: Int, _ now: Instant) -> [KioskEffect] {
        let pages = OperatorLayout(screen: state.screen).pages(for: state.catalog.count)
        let page = min(max(0, state.operatorView.page + step), pages - 1)
        guard page != state.operatorView.page else { return [] }
        state.operatorView.page = page
        let scene = operatorScene(state, now)
        return [.emit(.operatorPage(page + 1, of: pages, campaigns: scene.tiles.map(\.id))),
                .loadOperatorInfo(thumbnailsOf: scene.tiles.map(\.id))]
    }

    static func closeCampaignPage(_ state: inout KioskState) -> [KioskEffect] {
        state.operatorView.campaign = nil
        state.operatorView.shows = nil
        return []
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
