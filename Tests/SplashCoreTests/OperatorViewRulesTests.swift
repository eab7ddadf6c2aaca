import Foundation
import Testing
@testable import SplashCore

/// The operator view's own rules, on its own state alone: what each gesture, key and the
/// time come to, with the rest of the kiosk handed in as values.
@Suite struct OperatorViewRulesTests {
    let screen = Size(width: 1280, height: 720)

    @Test func theViewsRulesRunOnItsOwnState() {
        var view = OperatorViewState()
        var clock = ManualClock()
        OperatorViewRules.open(&view, returnTo: "a", clock.now)
        #expect(view.page == 0 && view.campaign == nil && view.returnTo == "a")

        // A swipe to the left turns to the next page, and at the last one it stays.
        let swipe = OperatorGesture.swipeDistance(on: screen) + 1
        let noCard: (Point) -> Campaign.ID? = { _ in nil }
        #expect(OperatorViewRules.release(&view, from: Point(x: 800, y: 300), to: Point(x: 800 - swipe, y: 310),
                                          screen: screen, pages: 2, card: noCard, clock.advance(1)) == .turned(page: 1))
        #expect(OperatorViewRules.key(&view, .pageDown, pages: 2, clock.advance(1)) == .nothing && view.page == 1)
        #expect(OperatorViewRules.key(&view, .left, pages: 2, clock.advance(1)) == .turned(page: 0))

        // A tap on a card opens its page; the page keys do nothing there, and Escape, a tap
        // or F2 go back to the library; on the library, Escape closes the view.
        #expect(OperatorViewRules.release(&view, from: Point(x: 100, y: 100), to: Point(x: 102, y: 101), screen: screen,
                                          pages: 2, card: { _ in "b" }, clock.advance(1)) == .openedCampaign("b"))
        #expect(view.campaign == "b" && view.shows == nil)
        #expect(!OperatorViewRules.showsLoaded(&view, of: "c", []) && view.shows == nil)
        #expect(OperatorViewRules.key(&view, .pageDown, pages: 2, clock.advance(1)) == .nothing && view.page == 0)
        #expect(OperatorViewRules.key(&view, .escape, pages: 2, clock.advance(1)) == .nothing && view.campaign == nil)
        #expect(OperatorViewRules.key(&view, .escape, pages: 2, clock.advance(1)) == .close)

        // Held in the corner long enough, a press is the hidden gesture, once.
        OperatorViewRules.cornerPressed(&view, at: Point(x: 5, y: 5), inView: false, clock.now)
        #expect(!OperatorViewRules.takeHeldCorner(&view, clock.advance(OperatorGesture.holdSeconds / 2)))
        #expect(OperatorViewRules.takeHeldCorner(&view, clock.advance(OperatorGesture.holdSeconds)))
        #expect(!OperatorViewRules.takeHeldCorner(&view, clock.advance(1)) && view.cornerPressAt == nil)

        // Idle long enough, the view closes, a campaign's page with it.
        view.campaign = "b"
        OperatorViewRules.touched(&view, clock.now)
        #expect(OperatorViewRules.timedOut(&view, clock.advance(OperatorGesture.idleSeconds - 1)) == .nothing)
        #expect(view.campaign == "b")
        #expect(OperatorViewRules.timedOut(&view, clock.advance(1)) == .close && view.campaign == nil)
    }
}
