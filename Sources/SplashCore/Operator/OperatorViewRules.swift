import FoundationEssentials

/// The operator view's own rules, a feature of its own like `ScreenPowerRules`: it changes
/// only the `OperatorViewState` it is handed — the hidden gesture's press in the corner, a
/// press in the view and what its release comes to, the keys, the page and the campaign
/// open, the view's idle time, what the shell read for it — and is given what it reads of
/// the rest as values (the screen, how many pages, which card is where). What the view
/// asks of the kiosk around it comes back as an `Outcome`, which the root
/// (`Kiosk.operatorOutcome`) turns into the scene's change, the events and the reads.
enum OperatorViewRules {
    /// What a gesture, a key or the time in the view comes to.
    enum Outcome: Equatable {
        case nothing
        /// The library turned to `page` (from 0).
        case turned(page: Int)
        /// A campaign's page opened: its shows are to be read.
        case openedCampaign(Campaign.ID)
        /// The view closes (Escape or F2 on the library, its idle timeout).
        case close
    }

    /// The view opens on the library's first page; `returnTo` is the campaign whose
    /// detail follows when it closes.
    static func open(_ view: inout OperatorViewState, returnTo: Campaign.ID?, _ now: Instant) {
        view.returnTo = returnTo
        view.idleSince = now.uptime
        view.page = 0
        view.campaign = nil
        view.press = nil
    }

    /// The view toggled (F2, the hidden gesture): on a campaign's page, back to the
    /// library; on the library, it closes.
    static func toggle(_ view: inout OperatorViewState) -> Outcome {
        guard view.campaign == nil else {
            closeCampaign(&view)
            return .nothing
        }
        return .close
    }

    /// A press in the operator corner: it waits, held `OperatorGesture.holdSeconds` it
    /// toggles the view, let go sooner it is an ordinary tap. In the view it is a press too.
    static func cornerPressed(_ view: inout OperatorViewState, at point: Point, inView: Bool, _ now: Instant) {
        view.cornerPressAt = now.uptime
        view.idleSince = now.uptime
        if inView { view.press = point }
    }

    /// A press in the view: it waits for its release (a swipe, or a tap).
    static func pressed(_ view: inout OperatorViewState, at point: Point, _ now: Instant) {
        view.press = point
        view.idleSince = now.uptime
    }

    /// Whether a press in the corner has been held long enough at `now`; if so it is used up.
    static func takeHeldCorner(_ view: inout OperatorViewState, _ now: Instant) -> Bool {
        guard let start = view.cornerPressAt, now.uptime >= start + OperatorGesture.holdSeconds else { return false }
        view.cornerPressAt = nil
        return true
    }

    /// A finger or button let go: the press in the corner and in the view it ends, both cleared.
    static func released(_ view: inout OperatorViewState) -> (corner: Seconds?, from: Point?) {
        defer { (view.cornerPressAt, view.press) = (nil, nil) }
        return (view.cornerPressAt, view.press)
    }

    /// A release in the view from `start` to `end`: a swipe across turns the library's
    /// page (of `pages`); anything shorter is a tap — on a campaign's page back to the
    /// library, on a card (`card`: the campaign of the card under a point, if any) its page.
    static func release(_ view: inout OperatorViewState, from start: Point, to end: Point, screen: Size, pages: Int,
                        card: (Point) -> Campaign.ID?, _ now: Instant) -> Outcome {
        view.idleSince = now.uptime
        let dx = end.x - start.x
        let dy = end.y - start.y
        if abs(dx) >= OperatorGesture.swipeDistance(on: screen), abs(dx) > abs(dy), view.campaign == nil {
            return turn(&view, by: dx < 0 ? 1 : -1, pages: pages)
        }
        guard view.campaign == nil else {
            closeCampaign(&view)
            return .nothing
        }
        guard let id = card(start) else { return .nothing }
        view.campaign = id
        view.shows = nil
        return .openedCampaign(id)
    }

    /// A key in the view: Escape as F2; the page keys and arrows turn the library's page.
    static func key(_ view: inout OperatorViewState, _ key: Key, pages: Int, _ now: Instant) -> Outcome {
        view.idleSince = now.uptime
        switch key {
        case .escape: return toggle(&view)
        case .pageDown, .right: return view.campaign == nil ? turn(&view, by: 1, pages: pages) : .nothing
        case .pageUp, .left: return view.campaign == nil ? turn(&view, by: -1, pages: pages) : .nothing
        default: return .nothing
        }
    }

    /// The next (`by` 1) or previous (-1) of `pages`; at either end it stays.
    static func turn(_ view: inout OperatorViewState, by step: Int, pages: Int) -> Outcome {
        let page = min(max(0, view.page + step), pages - 1)
        guard page != view.page else { return .nothing }
        view.page = page
        return .turned(page: page)
    }

    /// Any other input in the view keeps it open.
    static func touched(_ view: inout OperatorViewState, _ now: Instant) {
        view.idleSince = now.uptime
    }

    /// When the view closes by itself: its idle time over.
    static func idleEnds(_ view: OperatorViewState) -> Seconds {
        view.idleSince + OperatorGesture.idleSeconds
    }

    /// At `now`: whether the view has been idle long enough to close, a campaign's page
    /// included (closed with it).
    static func timedOut(_ view: inout OperatorViewState, _ now: Instant) -> Outcome {
        guard now.uptime >= idleEnds(view) else { return .nothing }
        view.campaign = nil
        return .close
    }

    /// A campaign's last shows, read: kept when its page is still the one open.
    static func showsLoaded(_ view: inout OperatorViewState, of id: Campaign.ID, _ shows: [ShowRecord]) -> Bool {
        guard view.campaign == id else { return false }
        view.shows = shows
        return true
    }

    /// What the shell read for the view.
    static func infoLoaded(_ view: inout OperatorViewState, _ info: OperatorInfo) {
        view.info = info
    }

    /// The screen went dark: no press is pending and no campaign's page open.
    static func darkened(_ view: inout OperatorViewState) {
        view.cornerPressAt = nil
        view.press = nil
        view.campaign = nil
    }

    private static func closeCampaign(_ view: inout OperatorViewState) {
        view.campaign = nil
        view.shows = nil
    }
}
