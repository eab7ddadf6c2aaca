import Foundation
import Testing
@testable import SplashCore

/// A manual clock: the test moves time by hand.
struct ManualClock {
    var now = Instant(uptime: 0, date: Date(timeIntervalSince1970: 1_790_000_000))
    mutating func advance(_ s: Seconds) -> Instant {
        now = now.advanced(by: s)
        return now
    }
}

func entry(_ id: Campaign.ID, showLimit: Int = 5, shows: Int = 0, updated: TimeInterval? = nil, position: Int = 0,
           start: Date? = nil, end: Date? = nil, image: String? = "/img/x.jpg") -> CatalogEntry {
    CatalogEntry(
        campaign: Campaign(id: id, picURL: URL(string: "https://example.test/\(id).jpg")!, showLimit: showLimit,
                           title: "T-\(id)", detail: "D-\(id)", startAt: start, endAt: end,
                           updatedAt: updated.map { Date(timeIntervalSince1970: $0) }, position: position),
        shows: shows,
        picture: image.map { .cached(path: $0.replacingOccurrences(of: "x", with: id.rawValue)) } ?? .waiting(CatalogEntry.notCached))
}

func makeState(_ catalog: [CatalogEntry] = [entry("a")], countdown: Int = 3, fallback: FallbackMode = .image,
               attract: Int = 10) -> KioskState {
    var state = KioskState(settings: KioskSettings(countdown: countdown, fallback: fallback, attractAfter: attract,
                                                   defaultImage: "/assets/default.jpg", pick: .newest, timeZone: .gmt),
                           screen: Size(width: 1280, height: 720))
    state.catalog = catalog
    return state
}

/// Reduces `action` as the shell does: each effect in turn, and the actions that answer
/// them after it, one at a time — a show is recorded (`showRecorded`) and the first frame
/// presented (`framePresented`) when `presenting` names its kind. Returns every effect in order.
func send(_ state: inout KioskState, _ action: KioskAction, presenting: Scene.Kind? = nil) -> [KioskEffect] {
    var queue = [action]
    var all: [KioskEffect] = []
    while !queue.isEmpty {
        let next = queue.removeFirst()
        for effect in Kiosk.reduce(&state, next) {
            all.append(effect)
            if case .recordShow(let id, _, _, _) = effect { queue.append(.showRecorded(campaignID: id)) }
            // The screen lit at the moment it was asked (the manual clock does not move meanwhile).
            if effect == .powerScreen(on: true), let at = instant(of: next) { queue.append(.screenLit(at)) }
        }
        if queue.isEmpty, let kind = presenting {
            queue.append(.framePresented(kind, sinceStart: 100, Instant(uptime: 0, date: Date(timeIntervalSince1970: 0))))
            return all + send(&state, queue[0])
        }
    }
    return all
}

/// The moment an action happened at, for the actions that carry one.
func instant(of action: KioskAction) -> Instant? {
    switch action {
    case .started(let at), .tick(let at), .clockObserved(_, let at), .pressed(_, let at), .released(_, let at),
         .keyPressed(_, let at), .feedFetched(_, _, _, _, let at), .screenCommanded(_, let at), .screenLit(let at):
        return at
    default:
        return nil
    }
}

@Suite struct KioskReducerTests {
    @Test func startRecordsTheShowBeforeAnnouncingItAndSyncsAfterTheFirstFrame() {
        var state = makeState()
        let clock = ManualClock()
        // The show is announced only once the ledger holds it.
        reduce(&state, .started(clock.now), expecting: [
            .emit(.poetry(source: .placeholder, origin: PoetryEntry.placeholder.origin)),
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "a", at: clock.now.date, media: .picture, picture: "/img/a.jpg"),
        ])
        reduce(&state, .showRecorded(campaignID: "a"), expecting: [
            .notePictureUsed(path: "/img/a.jpg"),
            .emit(.splash(campaign: "a", remaining: 4, image: "/img/a.jpg")),
            .emit(.countdown(value: 3)),
            .expectFirstPicture("/img/a.jpg"),
        ])
        // A show that is no longer on the screen is not announced late.
        var other = state
        other.scene = .starting
        reduce(&other, .showRecorded(campaignID: "a"), expecting: [])
        // Background work waits for the first frame, as the service manager's word that the
        // kiosk is up does; later frames start none.
        reduce(&state, .framePresented(.splash, sinceStart: 250, clock.now), expecting: [
            .emit(.frame(scene: .splash)), .emit(.firstFrame(ms: 250)), .serviceReady, .fetchFeed, .reloadPoetry,
        ])
        reduce(&state, .framePresented(.detail, sinceStart: 900, clock.now), expecting: [.emit(.frame(scene: .detail))])
        #expect(state.framesPresented == 2 && state.lastFrame == .detail)
        #expect(state.nextDeadline == 1)
    }

    /// The whole state after each action, not a few fields: nothing else changes.
    @Test func eachActionChangesOnlyWhatItMeans() {
        var state = makeState()
        var clock = ManualClock()
        var expected = state
        reduce(&state, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "a", at: date(after: 0), media: .picture, picture: "/img/a.jpg"),
        ])
        expected.sync.running = true
        expected.poetry.loading = true
        expected.lifecycle = .started
        var splash = SplashScene(campaignID: "a", imagePath: "/img/a.jpg", countdown: 3, nextTickAt: 1)
        splash.startedAt = clock.now
        expected.scene = .splash(splash)
        #expect(state == expected)
        // The ledger's answer counts the show; the first frame changes only the frames' record
        // that the service manager was told the kiosk is up, and that the run's first sync and
        // poem are asked for.
        reduce(&state, .showRecorded(campaignID: "a"), expecting: [
            .notePictureUsed(path: "/img/a.jpg"),
            .emit(.splash(campaign: "a", remaining: 4, image: "/img/a.jpg", media: .picture)),
            .emit(.countdown(value: 3)),
            .expectFirstPicture("/img/a.jpg"),
        ])
        expected.catalog[0].noteShow(at: clock.now.date, uptime: 0)
        splash.counted = true
        expected.scene = .splash(splash)
        #expect(state == expected)
        reduce(&state, .framePresented(.splash, sinceStart: 300, clock.now), expecting: [
            .emit(.frame(scene: .splash)),
            .emit(.firstFrame(ms: 300)),
            .serviceReady,
            .fetchFeed,
            .reloadPoetry,
        ])
        expected.framesPresented = 1
        expected.lastFrame = .splash
        expected.serviceToldReady = true
        expected.lifecycle = .running
        #expect(state == expected)
        // A tick moves the number on the pill and its next tick, nothing else.
        reduce(&state, .tick(clock.advance(1)), expecting: [.emit(.countdown(value: 2))])
        splash.countdown = 2
        splash.nextTickAt = 2
        expected.scene = .splash(splash)
        #expect(state == expected)
        // A key ends the splash: the detail screen, its idle timer, one splash ended.
        reduce(&state, .keyPressed(.escape, clock.advance(0.5)), expecting: [
            .endShow(campaignID: "a", by: .key, at: date(after: 1.5)),
            .emit(.skip(by: .key)),
            .emit(.detail(campaign: "a")),
        ])
        expected.scene = .detail(Kiosk.detailScene(for: "a", in: expected))
        expected.splashesEnded = 1
        expected.idleSince = 1.5
        expected.poetry.spinnerStepAt = 1.5 + 1 / PoetryState.spinnerRate
        #expect(state == expected)
        // A sync that changed nothing schedules the next one.
        reduce(&state, .feedFetched(SyncReport(status: .notModified, campaigns: 1), catalog: nil, message: nil, screen: nil,
                                              clock.now), expecting: [
            .emit(.sync(status: .notModified, campaigns: 1, error: nil, ms: nil, reason: nil)),
        ])
        expected.sync.finished(.notModified, at: 1.5)
        #expect(state == expected)
    }

    @Test func aShowTheLedgerRefusedIsReplacedByTheFallback() {
        var state = makeState([entry("a", showLimit: 5, shows: 2)])
        var clock = ManualClock()
        reduce(&state, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "a", at: date(after: 0), media: .picture, picture: "/img/a.jpg"),
        ])
        // Nothing counts until the ledger answers.
        #expect(state.catalog[0].shows == 2)
        // Nothing is recorded for the fallback.
        reduce(&state, .showNotRecorded(campaignID: "a", reason: "disk full", clock.advance(0.01)), expecting: [
            .emit(.error(message: "cannot record a show of a, so it is not shown: disk full")),
            .emit(.splash(campaign: nil, remaining: nil, image: "/assets/default.jpg")),
            .emit(.countdown(value: 3)),
        ])
        guard case .splash(let splash) = state.scene else { Issue.record("not on the splash"); return }
        #expect(splash.campaignID == nil)
        #expect(splash.imagePath == "/assets/default.jpg")
        // The count is what the ledger holds.
        #expect(state.catalog[0].shows == 2)
    }

    @Test func aRefusedShowWithFallbackSkipGoesStraightToTheDetail() {
        var state = makeState([entry("a")], fallback: .skip)
        let clock = ManualClock()
        reduce(&state, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "a", at: date(after: 0), media: .picture, picture: "/img/a.jpg"),
        ])
        reduce(&state, .showNotRecorded(campaignID: "a", reason: "locked", clock.now), expecting: [
            .emit(.error(message: "cannot record a show of a, so it is not shown: locked")),
            .emit(.detail(campaign: nil)),
        ])
        guard case .detail(let detail) = state.scene else { Issue.record("not on the detail screen"); return }
        #expect(detail.campaignID == nil)
    }

    @Test func countdownTicksOncePerSecondAndAdvancesAtZero() {
        var state = makeState()
        var clock = ManualClock()
        reduce(&state, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "a", at: date(after: 0), media: .picture, picture: "/img/a.jpg"),
        ])
        reduce(&state, .tick(clock.advance(0.5)), expecting: [])
        reduce(&state, .tick(clock.advance(0.5)), expecting: [.emit(.countdown(value: 2))])
        #expect(state.nextDeadline == 2)
        reduce(&state, .tick(clock.advance(1)), expecting: [.emit(.countdown(value: 1))])
        reduce(&state, .tick(clock.advance(1)), expecting: [
            .endShow(campaignID: "a", by: .timeout, at: date(after: 3)), .emit(.skip(by: .timeout)), .emit(.detail(campaign: "a")),
        ])
        guard case .detail(let detail) = state.scene else { Issue.record("not on detail"); return }
        #expect(detail.campaignID == "a")
        #expect(detail.title == "T-a")
        #expect(detail.text == "D-a")
        #expect(state.splashesEnded == 1)
    }

    @Test func aLateWakeUpCatchesUpWithoutGoingNegative() {
        var state = makeState(countdown: 3)
        var clock = ManualClock()
        reduce(&state, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "a", at: date(after: 0), media: .picture, picture: "/img/a.jpg"),
        ])
        reduce(&state, .tick(clock.advance(2.5)), expecting: [.emit(.countdown(value: 1))])
        reduce(&state, .tick(clock.advance(10)), expecting: [
            .endShow(campaignID: "a", by: .timeout, at: date(after: 12.5)), .emit(.skip(by: .timeout)), .emit(.detail(campaign: "a")),
        ])
        if case .detail = state.scene {} else { Issue.record("expected detail") }
    }

    @Test func tapOnThePillSkips() {
        var state = makeState()
        var clock = ManualClock()
        reduce(&state, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "a", at: date(after: 0), media: .picture, picture: "/img/a.jpg"),
        ])
        let pill = state.skipButton.frame
        reduce(&state, .pressed(Point(x: pill.maxX - 2, y: pill.y + 2), clock.advance(0.4)), expecting: [
            .endShow(campaignID: "a", by: .tap, at: clock.now.date),
            .emit(.skip(by: .tap)),
            .emit(.detail(campaign: "a")),
        ])
    }

    @Test(arguments: [Key.escape, .space, .enter])
    func skipKeysSkip(key: Key) {
        var state = makeState()
        var clock = ManualClock()
        reduce(&state, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "a", at: date(after: 0), media: .picture, picture: "/img/a.jpg"),
        ])
        reduce(&state, .keyPressed(key, clock.advance(0.2)), expecting: [
            .endShow(campaignID: "a", by: .key, at: date(after: 0.2)),
            .emit(.skip(by: .key)),
            .emit(.detail(campaign: "a")),
        ])
        if case .detail = state.scene {} else { Issue.record("expected detail") }
    }

    @Test func otherKeysDoNotSkip() {
        var state = makeState()
        var clock = ManualClock()
        reduce(&state, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "a", at: date(after: 0), media: .picture, picture: "/img/a.jpg"),
        ])
        reduce(&state, .keyPressed(.other, clock.advance(0.2)), expecting: [])
        if case .splash = state.scene {} else { Issue.record("expected splash") }
    }

    @Test(arguments: ["key", "timeout", "click-through"])
    func theUpcomingDetailIsTheOneTheSplashHandsOverTo(_ how: String) {
        var state = makeState([entry("a"), entry("b", updated: 100)])
        var clock = ManualClock()
        reduce(&state, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "b", at: date(after: 0), media: .picture, picture: "/img/b.jpg"),
        ])
        let upcoming = state.upcomingDetail
        #expect(upcoming?.campaignID == "b")
        #expect(upcoming?.title == "T-b")
        switch how {
        case "key": reduce(&state, .keyPressed(.escape, clock.advance(0.2)), expecting: [
            .endShow(campaignID: "b", by: .key, at: date(after: 0.2)),
            .emit(.skip(by: .key)),
            .emit(.detail(campaign: "b")),
        ])
        case "timeout":
            reduce(&state, .tick(clock.advance(1)), expecting: [.emit(.countdown(value: 2))])
            reduce(&state, .tick(clock.advance(1)), expecting: [.emit(.countdown(value: 1))])
            reduce(&state, .tick(clock.advance(1)), expecting: [
                .endShow(campaignID: "b", by: .timeout, at: date(after: 3)), .emit(.skip(by: .timeout)), .emit(.detail(campaign: "b")),
            ])
        default: reduce(&state, .pressed(Point(x: 300, y: 500), clock.advance(0.5)), expecting: [
            .endShow(campaignID: "b", by: .clickThrough, at: date(after: 0.5)),
            .wakeOutbox,
            .emit(.skip(by: .clickThrough)),
            .emit(.detail(campaign: "b")),
        ])
        }
        guard case .detail(let detail) = state.scene else { Issue.record("not on the detail screen"); return }
        #expect(detail == upcoming)
        #expect(state.upcomingDetail == nil)
    }

    @Test func theUpcomingDetailFollowsThePoem() {
        var state = makeState()
        let clock = ManualClock()
        reduce(&state, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "a", at: date(after: 0), media: .picture, picture: "/img/a.jpg"),
        ])
        #expect(state.upcomingDetail?.poetry == .placeholder)
        let poem = PoetryEntry(origin: "江南春", lines: ["千里莺啼绿映红"], source: .bundled)
        state.poetry.entry = poem
        #expect(state.upcomingDetail?.poetry == poem)
    }

    @Test func theFirstPictureIsTheOneTheFirstSplashShows() {
        let now = ManualClock().now
        let state = makeState([entry("a"), entry("b", updated: 100), entry("spent", showLimit: 1, shows: 1, updated: 200)])
        #expect(Kiosk.firstPicture(of: state, at: now) == "/img/b.jpg")
        // Asking records nothing.
        #expect(state.catalog.map(\.shows) == [0, 0, 1])
        var started = state
        reduce(&started, .started(now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "b", at: date(after: 0), media: .picture, picture: "/img/b.jpg"),
        ])
        guard case .splash(let splash) = started.scene else { Issue.record("not on the splash"); return }
        #expect(splash.imagePath == "/img/b.jpg")

        #expect(Kiosk.firstPicture(of: makeState([]), at: now) == "/assets/default.jpg")
        #expect(Kiosk.firstPicture(of: makeState([], fallback: .skip), at: now) == nil)
    }

    /// At start, from what is stored and what the clock is: the catalog decides, and a clock
    /// not set yet keeps a campaign with hours away, as the first splash will.
    @Test func theFirstPictureIsJudgedFromWhatTheRunStartsWith() throws {
        let now = ManualClock().now
        let settings = makeState().settings
        var timed = entry("timed", updated: 300)
        timed.campaign.hours = [try #require(DailyWindow("00:00-24:00"))]
        let catalog = [entry("a"), entry("b", updated: 100), timed]
        #expect(Kiosk.firstPicture(settings: settings, catalog: catalog, message: nil, screen: nil, timeSync: .synchronized,
                                   at: now) == "/img/timed.jpg")
        #expect(Kiosk.firstPicture(settings: settings, catalog: catalog, message: nil, screen: nil, timeSync: .waiting,
                                   at: now) == "/img/b.jpg")
        #expect(Kiosk.firstPicture(settings: settings, catalog: [], message: nil, screen: nil, timeSync: .absent, at: now)
                == "/assets/default.jpg")
    }

    @Test func tapElsewhereClicksThrough() {
        var state = makeState()
        var clock = ManualClock()
        reduce(&state, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "a", at: date(after: 0), media: .picture, picture: "/img/a.jpg"),
        ])
        reduce(&state, .pressed(Point(x: 300, y: 500), clock.advance(1.5)), expecting: [
            .endShow(campaignID: "a", by: .clickThrough, at: clock.now.date),
            .wakeOutbox,
            .emit(.skip(by: .clickThrough)),
            .emit(.detail(campaign: "a")),
        ])
    }

    /// With nothing eligible and `fallback = skip`, the attract loop has no picture to decode
    /// ahead: it looks once, and its next moment is the splash's own (a loop that woke at
    /// once again spun a core, and a virtual clock never moved on).
    @Test func withNothingToDecodeAheadTheLoopWaitsForTheSplashsMoment() {
        var state = makeState([], fallback: .skip, attract: 10)
        var clock = ManualClock()
        reduce(&state, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .emit(.detail(campaign: nil)),
        ])
        #expect(state.sceneDeadline == 10)
        #expect(state.nextDeadline == 8)
        reduce(&state, .tick(clock.advance(8)), expecting: [])
        #expect(state.splashLookAhead == .nothingToDecode)
        #expect(state.nextDeadline == 10)
        // At the splash's moment the fallback is the detail screen again, and the look ahead
        // comes again two seconds before the next one.
        reduce(&state, .tick(clock.advance(2)), expecting: [.emit(.detail(campaign: nil))])
        #expect(state.splashLookAhead == .notYet)
        #expect(state.nextDeadline == 18)
    }

    /// Idle for `attract` seconds, the detail screen gives way to the splash; input starts
    /// the count again. Two seconds before the splash, its picture starts decoding ahead
    /// (so the loop never waits on a decode); input lets that go too.
    @Test func attractLoopReturnsToTheSplashAndInputResetsTheIdleTimer() {
        var state = makeState(attract: 10)
        var clock = ManualClock()
        send(&state, .started(clock.now), expecting: splashStarted(at: date(after: 0), remaining: 4))
        reduce(&state, .keyPressed(.escape, clock.advance(1)), expecting: [
            .endShow(campaignID: "a", by: .key, at: date(after: 1)),
            .emit(.skip(by: .key)),
            .emit(.detail(campaign: "a")),
        ])
        #expect(state.sceneDeadline == 11)
        #expect(state.nextDeadline == 9)
        reduce(&state, .tick(clock.advance(6)), expecting: [])
        reduce(&state, .pressed(Point(x: 300, y: 300), clock.now), expecting: [])
        #expect(state.sceneDeadline == 17)
        reduce(&state, .keyPressed(.other, clock.advance(5)), expecting: [])
        #expect(state.sceneDeadline == 22)
        #expect(state.nextDeadline == 20)
        reduce(&state, .tick(clock.advance(7.9)), expecting: [])
        reduce(&state, .tick(clock.advance(0.1)), expecting: [.decodeAhead(path: "/img/a.jpg")])
        #expect(state.splashPictureAhead == "/img/a.jpg")
        #expect(state.nextDeadline == 22)
        // Input: the picture is let go, and asked for again two seconds before the new splash.
        reduce(&state, .keyPressed(.other, clock.advance(0.5)), expecting: [])
        #expect(state.splashPictureAhead == nil)
        #expect(state.nextDeadline == 28.5)
        reduce(&state, .tick(clock.advance(8)), expecting: [.decodeAhead(path: "/img/a.jpg")])
        reduce(&state, .tick(clock.advance(1.9)), expecting: [])
        send(&state, .tick(clock.advance(0.1)), expecting: [
            .recordShow(campaignID: "a", at: clock.now.date, media: .picture, picture: "/img/a.jpg"),
            .notePictureUsed(path: "/img/a.jpg"),
            .emit(.splash(campaign: "a", remaining: 3, image: "/img/a.jpg", media: .picture)),
            .emit(.countdown(value: 3)),
            .expectFirstPicture("/img/a.jpg"),
        ])
    }

    @Test func attractZeroMeansNever() {
        var state = makeState(attract: 0)
        var clock = ManualClock()
        reduce(&state, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "a", at: date(after: 0), media: .picture, picture: "/img/a.jpg"),
        ])
        reduce(&state, .keyPressed(.enter, clock.advance(1)), expecting: [
            .endShow(campaignID: "a", by: .key, at: date(after: 1)),
            .emit(.skip(by: .key)),
            .emit(.detail(campaign: "a")),
        ])
        #expect(state.nextDeadline == nil)
        reduce(&state, .tick(clock.advance(100_000)), expecting: [])
    }

    @Test func nothingEligibleShowsTheDefaultImage() {
        var state = makeState([entry("used", showLimit: 2, shows: 2), entry("nopic", image: nil)])
        // Nothing is recorded for the default image.
        reduce(&state, .started(ManualClock().now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .emit(.splash(campaign: nil, remaining: nil, image: "/assets/default.jpg", media: .picture)),
            .emit(.countdown(value: 3)),
        ])
    }

    @Test func fallbackSkipGoesStraightToDetail() {
        var state = makeState([], fallback: .skip)
        reduce(&state, .started(ManualClock().now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .emit(.detail(campaign: nil)),
        ])
        guard case .detail(let detail) = state.scene else { Issue.record("expected detail"); return }
        #expect(detail.text == KioskSettings.standardMessage)
        #expect(state.splashesEnded == 1)
    }

    @Test func feedMessageIsTheDefaultDetailText() {
        var e = entry("a")
        e.campaign.detail = nil
        var state = makeState([e])
        reduce(&state, .catalogLoaded([e], message: "Hello from the feed", screen: nil), expecting: [])
        reduce(&state, .started(ManualClock().now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "a", at: date(after: 0), media: .picture, picture: "/img/a.jpg"),
        ])
        reduce(&state, .keyPressed(.space, ManualClock().now), expecting: [
            .endShow(campaignID: "a", by: .key, at: date(after: 0)),
            .emit(.skip(by: .key)),
            .emit(.detail(campaign: "a")),
        ])
        guard case .detail(let detail) = state.scene else { Issue.record("expected detail"); return }
        #expect(detail.text == "Hello from the feed")
    }

    @Test func showsRunOutThenTheFallbackAppears() {
        var state = makeState([entry("a", showLimit: 2)], attract: 1)
        var clock = ManualClock()
        var shown: [Campaign.ID?] = []
        send(&state, .started(clock.now), expecting: splashStarted(at: date(after: 0), remaining: 1))
        // Skipped at once each time: the campaign's two shows count, then the default
        // picture comes and counts nothing.
        for round in 0..<3 {
            if case .splash(let s) = state.scene { shown.append(s.campaignID) }
            let skipped = clock.advance(0.1)
            reduce(&state, .keyPressed(.escape, skipped), expecting: round < 2 ? [
                .endShow(campaignID: "a", by: .key, at: skipped.date), .emit(.skip(by: .key)), .emit(.detail(campaign: "a")),
            ] : [.emit(.skip(by: .key)), .emit(.detail(campaign: nil))])
            let next = clock.advance(1)
            send(&state, .tick(next), expecting: round == 0 ? [
                .recordShow(campaignID: "a", at: next.date, media: .picture, picture: "/img/a.jpg"),
                .notePictureUsed(path: "/img/a.jpg"),
                .emit(.splash(campaign: "a", remaining: 0, image: "/img/a.jpg", media: .picture)),
                // Its shows used up, a start would show the default picture.
                .emit(.countdown(value: 3)), .expectFirstPicture("/assets/default.jpg"),
            ] : [
                .emit(.splash(campaign: nil, remaining: nil, image: "/assets/default.jpg", media: .picture)),
                .emit(.countdown(value: 3)),
            ])
        }
        #expect(shown == ["a", "a", nil])
    }

    @Test func aStaleCatalogNeverLowersAShowCount() {
        var state = makeState([entry("a", showLimit: 2)])
        var clock = ManualClock()
        send(&state, .started(clock.now), expecting: splashStarted(at: date(after: 0), remaining: 1))
        // A sync read the store before the first show was recorded.
        reduce(&state, .feedFetched(SyncReport(status: .notModified, campaigns: 1),
                                              catalog: [entry("a", showLimit: 2, shows: 0)], message: nil, screen: nil, clock.advance(0.1)), expecting: [
            .emit(.sync(status: .notModified, campaigns: 1, error: nil, ms: nil, reason: nil)),
        ])
        #expect(state.catalog[0].shows == 1)
        reduce(&state, .keyPressed(.escape, clock.advance(0.1)), expecting: [
            .endShow(campaignID: "a", by: .key, at: date(after: 0.2)),
            .emit(.skip(by: .key)),
            .emit(.detail(campaign: "a")),
        ])
        send(&state, .tick(clock.advance(10)), expecting: [
            .recordShow(campaignID: "a", at: date(after: 10.2), media: .picture, picture: "/img/a.jpg"),
            .notePictureUsed(path: "/img/a.jpg"),
            .emit(.splash(campaign: "a", remaining: 0, image: "/img/a.jpg", media: .picture)),
            .emit(.countdown(value: 3)), .expectFirstPicture("/assets/default.jpg"),
        ])
        let skipped = clock.advance(0.1)
        reduce(&state, .keyPressed(.escape, skipped), expecting: [
            .endShow(campaignID: "a", by: .key, at: skipped.date),
            .emit(.skip(by: .key)),
            .emit(.detail(campaign: "a")),
        ])
        send(&state, .tick(clock.advance(10)), expecting: [
            .emit(.splash(campaign: nil, remaining: nil, image: "/assets/default.jpg", media: .picture)),
            .emit(.countdown(value: 3)),
        ])
        guard case .splash(let third) = state.scene else { Issue.record("expected splash"); return }
        #expect(third.campaignID == nil)
        // A newer catalog with more shows (and a raised showTime) is taken as it is.
        reduce(&state, .feedFetched(SyncReport(status: .ok, campaigns: 1),
                                              catalog: [entry("a", showLimit: 5, shows: 2)], message: nil, screen: nil, clock.now), expecting: [
            .emit(.sync(status: .ok, campaigns: 1, error: nil, ms: nil, reason: nil)),
        ])
        #expect(state.catalog[0].remaining == 3)
    }

    @Test func syncRunsAtStartThenEveryIntervalWithBackoffAfterFailures() {
        var state = makeState(attract: 0)
        state.settings.syncInterval = 900
        state.sync = SyncSchedule(interval: 900)
        var clock = ManualClock()
        send(&state, .started(clock.now), presenting: .splash, expecting: splashStarted(at: date(after: 0), remaining: 4) + firstFrame)
        #expect(state.sync.running)
        reduce(&state, .keyPressed(.escape, clock.advance(1)), expecting: [
            .endShow(campaignID: "a", by: .key, at: date(after: 1)),
            .emit(.skip(by: .key)),
            .emit(.detail(campaign: "a")),
        ])
        // No second sync while one is running.
        reduce(&state, .tick(clock.advance(1000)), expecting: [])
        reduce(&state, .feedFetched(SyncReport(status: .error, campaigns: 0, error: "boom"), catalog: nil, message: nil, screen: nil,
                                    clock.now), expecting: [
            .emit(.error(message: "boom")),
            .emit(.sync(status: .error, campaigns: 0, error: "boom", reason: .other)),
        ])
        var waits: [Seconds] = []
        for _ in 0..<7 {
            let due = state.nextDeadline!
            waits.append(due - clock.now.uptime)
            reduce(&state, .tick(clock.advance(due - clock.now.uptime - 0.5)), expecting: [])
            reduce(&state, .tick(clock.advance(0.5)), expecting: [.fetchFeed])
            reduce(&state, .feedFetched(SyncReport(status: .error, campaigns: 0, error: "boom"),
                                                  catalog: nil, message: nil, screen: nil, clock.now), expecting: [
                .emit(.error(message: "boom")),
                .emit(.sync(status: .error, campaigns: 0, error: "boom", ms: nil, reason: .other)),
            ])
        }
        // Each wait is spread by up to 10 % either way, and not all by the same.
        for (wait, nominal) in zip(waits, [30.0, 60, 120, 240, 480, 900, 900]) {
            #expect(abs(wait - nominal) <= nominal * 0.1 + 1e-9 && wait != nominal, "\(waits)")
        }
        #expect(Set(waits.enumerated().map { $0.element / [30.0, 60, 120, 240, 480, 900, 900][$0.offset] }).count == 7)
        reduce(&state, .tick(clock.advance(1000)), expecting: [.fetchFeed])
        reduce(&state, .feedFetched(SyncReport(status: .notModified, campaigns: 0), catalog: nil, message: nil, screen: nil,
                                              clock.now), expecting: [
            .emit(.sync(status: .notModified, campaigns: 0, error: nil, ms: nil, reason: nil)),
        ])
        let next = state.nextDeadline! - clock.now.uptime
        #expect(next >= 810 && next <= 990)
        #expect(state.sync.failures == 0)
        // Two kiosks started together with other seeds part ways at once.
        var a = SyncSchedule(interval: 900, seed: 1), b = SyncSchedule(interval: 900, seed: 2)
        a.finished(.ok, at: 0)
        b.finished(.ok, at: 0)
        #expect(a.nextAt != b.nextAt)
    }

    @Test func anUndecodableImageMovesToTheNextCampaign() {
        var state = makeState([entry("old", updated: 100), entry("new", updated: 200)])
        let clock = ManualClock()
        reduce(&state, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "new", at: date(after: 0), media: .picture, picture: "/img/new.jpg"),
        ])
        send(&state, .imageFailed(path: "/img/new.jpg", reason: "broken", clock.now), expecting: [
            .emit(.error(message: "cannot show image /img/new.jpg: broken")),
            .recordShow(campaignID: "old", at: date(after: 0), media: .picture, picture: "/img/old.jpg"),
            .notePictureUsed(path: "/img/old.jpg"),
            .emit(.splash(campaign: "old", remaining: 4, image: "/img/old.jpg", media: .picture)),
            .emit(.countdown(value: 3)),
            .expectFirstPicture("/img/old.jpg"),
        ])
        #expect(state.catalog[1].picture == .refused("broken", path: "/img/new.jpg"))
        // A picture is said to be broken once, however often it fails to draw.
        send(&state, .imageFailed(path: "/img/new.jpg", reason: "broken", clock.now), expecting: [])
        // One that fails on the detail screen is said, and its campaign keeps its turns.
        send(&state, .keyPressed(.escape, clock.now), expecting: [
            .endShow(campaignID: "old", by: .key, at: date(after: 0)),
            .emit(.skip(by: .key)),
            .emit(.detail(campaign: "old")),
        ])
        send(&state, .imageFailed(path: "/img/old.jpg", reason: "no memory", clock.now), expecting: [
            .emit(.error(message: "cannot show image /img/old.jpg: no memory")),
        ])
        #expect(state.catalog[0].picture == .cached(path: "/img/old.jpg"))
        #expect(state.catalog[0].isEligible(at: clock.now.date, context: state.ruleContext(clock.now)))
    }
}

@Suite struct BackoffTests {
    @Test func oneRuleForEveryRetry() {
        #expect((1...7).map { SyncSchedule.backoff(failures: $0, interval: 900) } == [30, 60, 120, 240, 480, 900, 900])
        #expect(SyncSchedule.backoff(failures: 0, interval: 900) == 900)
        // Waiting for a display: a quarter second for five seconds, then 1 s, 2 s and every 4 s.
        let waits = (1...24).map { DisplayWait.delay(afterLooks: $0) }
        #expect(waits.prefix(20).allSatisfy { $0 == 0.25 } && waits.dropFirst(20) == [1, 2, 4, 4])
        #expect(Backoff(first: 30, cap: 900).delay(failures: 1_000) == 900)
    }
}

@Suite struct OutboxAndLedgerReasonTests {
    @Test func theOperatorViewEndsAShowByAReasonOfItsOwn() {
        var state = makeState()
        let clock = ManualClock()
        send(&state, .started(clock.now), expecting: splashStarted(at: date(after: 0), remaining: 4))
        // No wakeOutbox: a show the operator view ended is no news for the network process.
        reduce(&state, .keyPressed(.operatorView, clock.now), expecting: [
            .endShow(campaignID: "a", by: .operatorView, at: clock.now.date),
            .emit(.skip(by: .operatorView)),
            .emit(.operatorView(open: true)),
            .emit(.operatorPage(1, of: 1, campaigns: ["a"])),
            .loadOperatorInfo(thumbnailsOf: ["a"]),
        ])
        #expect(SkipReason.operatorView.outcome == .skipped)
    }

    @Test func theOutboxWakesForProofOfPlayClickThroughsAndImpressions() {
        // Without proof of play, a show that times out is no news for the network process…
        var state = makeState(attract: 0)
        var clock = ManualClock()
        send(&state, .started(clock.now), presenting: .splash, expecting: splashStarted(at: date(after: 0), remaining: 4) + firstFrame)
        send(&state, .tick(clock.advance(3)), expecting: [
            .endShow(campaignID: "a", by: .timeout, at: clock.now.date),
            .emit(.skip(by: .timeout)),
            .emit(.detail(campaign: "a")),
        ])
        // …a click-through is (its pings).
        state = makeState(attract: 0)
        send(&state, .started(clock.now), expecting: splashStarted(at: date(after: 3), remaining: 4))
        send(&state, .pressed(Point(x: 300, y: 300), clock.advance(0.5)), expecting: [
            .endShow(campaignID: "a", by: .clickThrough, at: clock.now.date),
            .wakeOutbox,
            .emit(.skip(by: .clickThrough)),
            .emit(.detail(campaign: "a")),
        ])
        // With proof of play every end is.
        state = makeState(attract: 0)
        state.settings.reportsShows = true
        send(&state, .started(clock.now), expecting: splashStarted(at: date(after: 3.5), remaining: 4))
        send(&state, .tick(clock.advance(3)), expecting: [
            .endShow(campaignID: "a", by: .timeout, at: clock.now.date),
            .wakeOutbox,
            .emit(.skip(by: .timeout)),
            .emit(.detail(campaign: "a")),
        ])
        // A show with impression pings wakes it at its first frame, not before.
        var pinged = entry("a")
        pinged.campaign.impressionURLs = ["https://t.example/i"]
        state = makeState([pinged])
        send(&state, .started(clock.now), expecting: splashStarted(at: clock.now.date, remaining: 4))
        send(&state, .framePresented(.splash, sinceStart: 100, clock.now), expecting: firstFrame + [.wakeOutbox])
    }

    @Test func aRunEndsWhenItsConditionIsMetAndAFirstFrameRunStartsNoSync() {
        var state = makeState(attract: 0)
        state.settings.exitAfter = .firstFrame
        let clock = ManualClock()
        send(&state, .started(clock.now), expecting: splashStarted(at: date(after: 0), remaining: 4))
        #expect(!state.runIsOver(at: 0))
        reduce(&state, .framePresented(.splash, sinceStart: 100, clock.now), expecting: [
            .emit(.frame(scene: .splash)),
            .emit(.firstFrame(ms: 100)),
            .serviceReady,
        ])
        #expect(state.runIsOver(at: 0))
        // A timed run's end is a deadline of the loop.
        state = makeState(attract: 0)
        state.settings.exitAfter = .seconds(0.5)
        send(&state, .started(clock.now), expecting: splashStarted(at: date(after: 0), remaining: 4))
        #expect(state.nextDeadline == 0.5)
        #expect(!state.runIsOver(at: 0.4) && state.runIsOver(at: 0.5))
        // `detail`: the detail screen presented with its poem settled.
        state = makeState(attract: 0)
        state.settings.exitAfter = .detail
        send(&state, .started(clock.now), presenting: .splash, expecting: splashStarted(at: date(after: 0), remaining: 4) + firstFrame)
        send(&state, .keyPressed(.escape, clock.now), expecting: [
            .endShow(campaignID: "a", by: .key, at: date(after: 0)),
            .emit(.skip(by: .key)),
            .emit(.detail(campaign: "a")),
        ])
        send(&state, .poetryFailed(reason: "offline", clock.now), expecting: [
            .emit(.warning(message: "poetry: offline")),
        ])
        #expect(!state.runIsOver(at: 0))
        send(&state, .framePresented(.detail, sinceStart: 200, clock.now), expecting: [.emit(.frame(scene: .detail))])
        #expect(state.runIsOver(at: 0))
    }
}

@Suite struct OperatorGestureTests {
    @Test func aHeldCornerOpensTheViewAndAShortOneIsATap() {
        var state = makeState(attract: 0)
        var clock = ManualClock()
        reduce(&state, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "a", at: date(after: 0), media: .picture, picture: "/img/a.jpg"),
        ])
        // Down in the corner: nothing yet, not even a click-through.
        reduce(&state, .pressed(Point(x: 5, y: 5), clock.advance(0.25)), expecting: [])
        #expect(state.nextDeadline == 1)
        // Up after 0.5 s: an ordinary tap on the splash.
        reduce(&state, .released(Point(x: 5, y: 5), clock.advance(0.5)), expecting: [
            .endShow(campaignID: "a", by: .clickThrough, at: clock.now.date),
            .wakeOutbox,
            .emit(.skip(by: .clickThrough)),
            .emit(.detail(campaign: "a")),
        ])
        // Held on the detail screen: after 3 s the view opens, the release does nothing more.
        reduce(&state, .pressed(Point(x: 5, y: 5), clock.advance(1)), expecting: [])
        #expect(state.nextDeadline == clock.now.uptime + 3)
        reduce(&state, .tick(clock.advance(2.75)), expecting: [])
        reduce(&state, .tick(clock.advance(0.25)), expecting: [
            .emit(.operatorView(open: true)), .emit(.operatorPage(1, of: 1, campaigns: ["a"])), .loadOperatorInfo(thumbnailsOf: ["a"]),
        ])
        reduce(&state, .released(Point(x: 5, y: 5), clock.advance(0.25)), expecting: [])
        guard case .operator(let view) = state.scene else { Issue.record("expected the operator view"); return }
        #expect(view.tiles.map(\.id) == ["a"])
        #expect(view.tiles.first?.isNext == true)
        // Thirty seconds without input close it, back to the detail screen.
        #expect(state.nextDeadline == clock.now.uptime - 0.25 + 30)
        reduce(&state, .tick(clock.advance(29.75)), expecting: [.emit(.operatorView(open: false)), .emit(.detail(campaign: "a"))])
        if case .detail = state.scene {} else { Issue.record("expected detail") }
    }

    @Test func operatorInfoFillsTheTiles() {
        var state = makeState([entry("a", showLimit: 2, shows: 2), entry("b")], attract: 0)
        let clock = ManualClock()
        reduce(&state, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "b", at: date(after: 0), media: .picture, picture: "/img/b.jpg"),
        ])
        reduce(&state, .keyPressed(.operatorView, clock.now), expecting: [
            .endShow(campaignID: "b", by: .operatorView, at: date(after: 0)),
            .emit(.skip(by: .operatorView)),
            .emit(.operatorView(open: true)),
            .emit(.operatorPage(1, of: 1, campaigns: ["b", "a"])),
            .loadOperatorInfo(thumbnailsOf: ["b", "a"]),
        ])
        let info = OperatorInfo(thumbnails: ["b": [0xFF, 0xD8, 0xFF]], feedURL: "file:///f.json", lastSuccess: nil,
                                lastError: "boom", cacheBytes: 1, cacheCapBytes: 2, version: "v", driver: "d",
                                renderer: "r", screen: "s")
        reduce(&state, .operatorInfoLoaded(info, clock.now), expecting: [])
        guard case .operator(let view) = state.scene else { Issue.record("expected the operator view"); return }
        // The next campaign first, the finished ones last.
        #expect(view.tiles.map(\.id) == ["b", "a"])
        #expect(view.tiles.map(\.ineligibility) == [nil, "used up"])
        #expect(view.tiles.map { $0.thumbnail != nil } == [true, false])
        #expect(view.info?.lastError == "boom")
    }

    /// The view is derived from the state in one place after every action: it follows what
    /// it shows (a catalog taken while it is open), and a frame presented, which changes
    /// nothing it shows, leaves it as drawn (no redraw, so no endless frames).
    @Test func theOpenViewFollowsTheStateAndOnlyWhenWhatItShowsChanged() {
        var state = makeState([entry("a")], attract: 0)
        var clock = ManualClock()
        reduce(&state, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "a", at: date(after: 0), media: .picture, picture: "/img/a.jpg"),
        ])
        reduce(&state, .keyPressed(.operatorView, clock.now), expecting: [
            .endShow(campaignID: "a", by: .operatorView, at: date(after: 0)),
            .emit(.skip(by: .operatorView)),
            .emit(.operatorView(open: true)),
            .emit(.operatorPage(1, of: 1, campaigns: ["a"])),
            .loadOperatorInfo(thumbnailsOf: ["a"]),
        ])
        let opened = state.scene
        reduce(&state, .framePresented(.operator, sinceStart: 5, clock.advance(1)), expecting: [
            .emit(.frame(scene: .operator)), .emit(.firstFrame(ms: 5)), .serviceReady, .fetchFeed, .reloadPoetry,
        ])
        #expect(state.scene == opened)
        reduce(&state, .catalogChanged([entry("a"), entry("b", updated: 300)], message: nil, screen: nil, clock.advance(1)),
               expecting: [])
        guard case .operator(let view) = state.scene else { Issue.record("expected the operator view"); return }
        #expect(view.tiles.map(\.id) == ["b", "a"])
        #expect(view.now == clock.now.date)
    }
}

/// The operator view's library: its order, its pages, a campaign's page.
@Suite struct OperatorLibraryTests {
    @Test func theLibraryIsOrderedNextEligibleProblemWaitingFinished() {
        var missing = entry("missing", image: nil)
        missing.picture = .waiting("cache full")
        let catalog = [entry("used", showLimit: 1, shows: 1), entry("old", updated: 100), missing,
                       entry("later", start: Date(timeIntervalSince1970: 1_900_000_000)), entry("new", updated: 300),
                       entry("ended", end: Date(timeIntervalSince1970: 1)), entry("mid", updated: 200)]
        let order = OperatorOrder.ordered(catalog, at: ManualClock().now.date, context: RuleContext(clockTrusted: true, deviceTimeZone: .gmt))
        #expect(order.map { catalog[$0.0].campaign.id } == ["new", "mid", "old", "missing", "later", "used", "ended"])
        #expect(order.map(\.1) == [.next, .eligible, .eligible, .problem, .waiting, .finished, .finished])
    }

    @Test func pagesTurnBySwipeAndKeysAndStopAtTheEnds() {
        let catalog = (0..<60).map { entry(Campaign.ID(String(format: "c%02d", $0)), showLimit: 9, updated: Double($0)) }
        var state = makeState(catalog, attract: 0)
        var clock = ManualClock()
        reduce(&state, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "c59", at: date(after: 0), media: .picture, picture: "/img/c59.jpg"),
        ])
        let layout = OperatorLayout(screen: state.screen)
        let pages = layout.pages(for: 60)
        #expect(pages > 1 && layout.perPage * (pages - 1) < 60)
        // Page p (from 1) holds the newest campaigns after those of the pages before it.
        func cards(_ page: Int) -> [Campaign.ID] {
            ((page - 1) * layout.perPage..<min(60, page * layout.perPage)).map { Campaign.ID(String(format: "c%02d", 59 - $0)) }
        }
        func turned(to page: Int) -> [KioskEffect] {
            [.emit(.operatorPage(page, of: pages, campaigns: cards(page))), .loadOperatorInfo(thumbnailsOf: cards(page))]
        }
        reduce(&state, .keyPressed(.operatorView, clock.advance(1)), expecting: [
            .endShow(campaignID: "c59", by: .operatorView, at: date(after: 1)),
            .emit(.skip(by: .operatorView)),
            .emit(.operatorView(open: true)),
        ] + turned(to: 1))
        var seen: [Campaign.ID] = cards(1)
        #expect(seen.first == "c59")  // the next campaign: the newest
        // A swipe to the left, then the keys: each page once, and nothing past the last.
        let w = state.screen.width
        reduce(&state, .pressed(Point(x: w / 2, y: 300), clock.advance(1)), expecting: [])
        reduce(&state, .released(Point(x: w / 2 - 200, y: 310), clock.advance(0.2)), expecting: turned(to: 2))
        seen += cards(2)
        for page in 3...(pages + 4) {
            reduce(&state, .keyPressed(.pageDown, clock.advance(1)), expecting: page <= pages ? turned(to: page) : [])
            if page <= pages { seen += cards(page) }
        }
        #expect(seen.count == 60 && Set(seen).count == 60, "\(seen.count) cards, \(Set(seen).count) distinct")
        guard case .operator(let last) = state.scene else { Issue.record("the view closed"); return }
        #expect(last.page == pages - 1)
        // Back with a swipe to the right and the left arrow.
        reduce(&state, .pressed(Point(x: 100, y: 300), clock.advance(1)), expecting: [])
        reduce(&state, .released(Point(x: 400, y: 300), clock.advance(0.2)), expecting: turned(to: pages - 1))
        reduce(&state, .keyPressed(.left, clock.advance(1)), expecting: turned(to: pages - 2))
        guard case .operator(let back) = state.scene else { Issue.record("the view closed"); return }
        #expect(back.page == pages - 3)
    }

    @Test func aTapOpensACampaignsPageAndTheClosingGesturesGoBack() {
        var state = makeState([entry("a", showLimit: 9, updated: 2), entry("b", showLimit: 9, updated: 1)], attract: 0)
        var clock = ManualClock()
        reduce(&state, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "a", at: date(after: 0), media: .picture, picture: "/img/a.jpg"),
        ])
        reduce(&state, .keyPressed(.operatorView, clock.advance(1)), expecting: [
            .endShow(campaignID: "a", by: .operatorView, at: date(after: 1)),
            .emit(.skip(by: .operatorView)),
            .emit(.operatorView(open: true)),
            .emit(.operatorPage(1, of: 1, campaigns: ["a", "b"])),
            .loadOperatorInfo(thumbnailsOf: ["a", "b"]),
        ])
        let second = OperatorLayout(screen: state.screen).card(1)
        let ledger = state.catalog.map(\.shows)
        reduce(&state, .pressed(second.center, clock.advance(1)), expecting: [])
        reduce(&state, .released(second.center, clock.advance(0.1)), expecting: [.loadCampaignShows(campaignID: "b")])
        let show = ShowRecord(row: 1, showID: "s", campaignID: "b", shownAt: clock.now.date, endedBy: .by(.timeout), seconds: 3)
        reduce(&state, .campaignShowsLoaded(campaignID: "b", shows: [show], clock.now), expecting: [
            .emit(.operatorCampaign("b", shows: [show])),
        ])
        guard case .operator(let view) = state.scene else { Issue.record("the view closed"); return }
        #expect(view.campaignPage?.campaign.id == "b" && view.campaignPage?.shows == [show])
        // Esc goes back to the library, not out of the view; nothing counted.
        reduce(&state, .keyPressed(.escape, clock.advance(1)), expecting: [])
        guard case .operator(let library) = state.scene else { Issue.record("the view closed"); return }
        #expect(library.campaignPage == nil)
        #expect(state.catalog.map(\.shows) == ledger)
        reduce(&state, .keyPressed(.escape, clock.advance(1)), expecting: [
            .emit(.operatorView(open: false)),
            .emit(.detail(campaign: "a")),
        ])
        if case .operator = state.scene { Issue.record("Esc on the library closes the view") }
        // The view's 30 s timeout closes it from a campaign's page too.
        reduce(&state, .keyPressed(.operatorView, clock.advance(1)), expecting: [
            .emit(.operatorView(open: true)),
            .emit(.operatorPage(1, of: 1, campaigns: ["a", "b"])),
            .loadOperatorInfo(thumbnailsOf: ["a", "b"]),
        ])
        reduce(&state, .pressed(second.center, clock.advance(1)), expecting: [])
        reduce(&state, .released(second.center, clock.advance(0.1)), expecting: [.loadCampaignShows(campaignID: "b")])
        reduce(&state, .tick(clock.advance(OperatorGesture.idleSeconds)), expecting: [
            .emit(.operatorView(open: false)),
            .emit(.detail(campaign: "a")),
        ])
        if case .operator = state.scene { Issue.record("the timeout left the view open") }
    }
}

@Suite struct FirstReadTests {
    @Test func onlyALocalFeedNeverReadIsReadBeforeTheFirstFrame() {
        let local = URL(fileURLWithPath: "/usr/share/splashboard/demo/feed.json")
        let remote = URL(string: "https://feeds.example/lobby.json")!
        #expect(SyncSchedule.readsBeforeFirstFrame(local, lastSuccess: nil))
        #expect(!SyncSchedule.readsBeforeFirstFrame(local, lastSuccess: Date(timeIntervalSince1970: 1_790_000_000)))
        #expect(!SyncSchedule.readsBeforeFirstFrame(remote, lastSuccess: nil))
    }
}

@Suite struct WritePacerTests {
    @Test func aFileIsWrittenAtOnceThenAtMostEveryInterval() {
        var pacer = WritePacer(interval: 10)
        #expect(pacer.wait(at: 1000) == 0)
        pacer.wrote(at: 1000)
        // Changes every second after it wait for the interval's end, then one write.
        var writes: [Seconds] = []
        for t in stride(from: 1001.0, through: 1035, by: 1) where pacer.wait(at: t) == 0 {
            pacer.wrote(at: t)
            writes.append(t)
        }
        #expect(writes == [1010, 1020, 1030])
        #expect(pacer.wait(at: 1032) == 8)
    }
}
