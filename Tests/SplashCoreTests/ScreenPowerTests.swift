import Foundation
import Testing
@testable import SplashCore

/// The screen's power in the reducer, on the manual clock: dark outside its hours (no
/// show, no deadline but the next change), lit again with a counted splash, woken by a
/// touch that clicks nothing, overridden by `splashboard screen`, kept on by a clock not
/// trusted yet, started dark, and the feed's schedule under the device's.
@Suite struct ScreenPowerTests {
    /// The schedule's hours beginning at 07:30 on 2 December: lit, and campaign "a" shown
    /// and counted (98 shows left after it).
    static let litAtHalfPastSeven: [KioskEffect] = [
        .powerScreen(on: true),
        .emit(.screen(on: true, reason: .schedule, until: Self.at("2026-12-02 22:00:00"))),
        .serviceScreen(dark: false, status: "screen on (schedule) until 22:00"),
        .journalScreen(summary: "screen on (schedule) until 22:00"),
        .recordShow(campaignID: "a", at: Self.at("2026-12-02 07:30:00"), media: .picture, picture: "/img/a.jpg"),
        .notePictureUsed(path: "/img/a.jpg"),
        .emit(.splash(campaign: "a", remaining: 98, image: "/img/a.jpg", media: .picture)),
        .emit(.countdown(value: 3)),
        .expectFirstPicture("/img/a.jpg"),
    ]

    static let zone = Zone(identifier: "Europe/Berlin")!
    static let timeZone = TimeZone(identifier: "Europe/Berlin")!

    static func at(_ text: String) -> Date {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = timeZone
        f.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return f.date(from: text)!
    }

    /// A kiosk on at 07:30–22:00 in Berlin, its clock at `time`, started (its splash on the
    /// screen, or the screen `dark` until 07:30 the next day when `time` is outside its hours).
    func kiosk(hours: String? = "07:30-22:00", wake: Int = 0, time: String = "2026-12-01 21:59:00",
               started: Bool = true, dark: Bool = false) throws -> (KioskState, Instant) {
        var settings = KioskSettings(countdown: 3, attractAfter: 10, defaultImage: "/assets/default.jpg", pick: .newest,
                                     timeZone: Self.zone)
        settings.wakeOnTouch = wake
        settings.screenSchedule = try ScreenSchedule(hoursText: hours, daysText: nil, offDatesText: nil)
        var state = KioskState(settings: settings, screen: Size(width: 1280, height: 720))
        state.catalog = [entry("a", showLimit: 100)]
        let now = Instant(uptime: 0, date: Self.at(time))
        let poem = KioskEffect.emit(.poetry(source: .placeholder, origin: PoetryEntry.placeholder.origin))
        let firstFrame: [KioskEffect] = [.emit(.frame(scene: .splash)), .emit(.firstFrame(ms: 100))]
        if started, dark {
            let status = "screen off (schedule) until tomorrow 07:30"
            send(&state, .started(now), presenting: .splash, expecting: [
                poem, .powerScreen(on: false),
                .emit(.screen(on: false, reason: .start, until: Self.at(String(time.prefix(10)) + " 07:30:00") + 86_400)),
                .serviceReady, .serviceScreen(dark: true, status: status), .journalScreen(summary: status),
                .fetchFeed, .reloadPoetry,
            ] + firstFrame)
        } else if started {
            send(&state, .started(now), presenting: .splash, expecting: [
                poem, .emit(.screen(on: true, reason: .start, until: hours.map { _ in Self.at(String(time.prefix(10)) + " 22:00:00") })),
                .recordShow(campaignID: "a", at: now.date, media: .picture, picture: "/img/a.jpg"),
                .notePictureUsed(path: "/img/a.jpg"),
                .emit(.splash(campaign: "a", remaining: 99, image: "/img/a.jpg", media: .picture)),
                .emit(.countdown(value: 3)), .expectFirstPicture("/img/a.jpg"),
            ] + firstFrame + [.serviceReady, .fetchFeed, .reloadPoetry]
                // A screen with hours is told to be on; without, it is left as it is.
                + (hours == nil ? [] : [.powerScreen(on: true)]))
        }
        return (state, now)
    }

    func moved(_ now: Instant, to time: String) -> Instant {
        now.advanced(by: Self.at(time).timeIntervalSince(now.date))
    }

    @Test func theScreenGoesDarkAtTheEndOfItsHoursAndNothingIsShownUntilTheyBegin() throws {
        var (state, start) = try kiosk()
        // Lit at start inside its hours: what holds it lit is the schedule, as `status` says.
        #expect(state.screenPower.isOn && state.screenPower.reason == .schedule)
        // At 21:59:59 the hours end in one second: that is the next deadline.
        var now = moved(start, to: "2026-12-01 21:59:59")
        send(&state, .tick(now), expecting: [
            .endShow(campaignID: "a", by: .timeout, at: Self.at("2026-12-01 21:59:59")),
            .emit(.skip(by: .timeout)),
            .emit(.detail(campaign: "a")),
        ])
        #expect(state.nextDeadline == now.uptime + 1)
        now = moved(start, to: "2026-12-01 22:00:00")
        send(&state, .tick(now), expecting: [
            .powerScreen(on: false), .emit(.screen(on: false, reason: .schedule, until: Self.at("2026-12-02 07:30:00"))),
            .serviceScreen(dark: true, status: "screen off (schedule) until tomorrow 07:30"),
            .journalScreen(summary: "screen off (schedule) until tomorrow 07:30"),
        ])
        #expect(state.scene == .starting && !state.screenPower.isOn)
        // Dark: the next deadline is the hours' start (a sync is running), never the attract
        // loop or the poem.
        let nextOn = now.uptime + Self.at("2026-12-02 07:30:00").timeIntervalSince(now.date)
        #expect(state.screenPower.checkAt == nextOn)
        #expect(state.nextDeadline == nextOn)
        // Ticks and taps while dark show and count nothing.
        for minutes in stride(from: 1.0, through: 540, by: 37) {
            let later = now.advanced(by: minutes * 60)
            send(&state, .tick(later), expecting: [])
            send(&state, .pressed(Point(x: 640, y: 360), later), expecting: [])
            send(&state, .keyPressed(.space, later), expecting: [])
        }
        // 07:30: lit, and a splash is shown and counted as at any start.
        let morning = moved(start, to: "2026-12-02 07:30:00")
        send(&state, .tick(morning), expecting: [
            .powerScreen(on: true), .emit(.screen(on: true, reason: .schedule, until: Self.at("2026-12-02 22:00:00"))),
            .serviceScreen(dark: false, status: "screen on (schedule) until 22:00"), .journalScreen(summary: "screen on (schedule) until 22:00"),
            .recordShow(campaignID: "a", at: morning.date, media: .picture, picture: "/img/a.jpg"), .notePictureUsed(path: "/img/a.jpg"),
            .emit(.splash(campaign: "a", remaining: 98, image: "/img/a.jpg", media: .picture)), .emit(.countdown(value: 3)),
            .expectFirstPicture("/img/a.jpg"),
        ])
        if case .splash = state.scene {} else { Issue.record("no splash after waking: \(state.scene)") }
        start = morning
    }

    /// The service manager hears the kiosk is up once, at its first frame (or at a start in
    /// the dark, where no frame is coming), and of the screen's changes only after; the
    /// journal hears of every change and of a start in the dark, never of a start lit.
    @Test func theServiceManagerHearsOfTheKioskOnceUpAndTheJournalOfEachChange() throws {
        var (state, start) = try kiosk(started: false)
        send(&state, .started(start), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: Self.at("2026-12-01 22:00:00"))),
            .recordShow(campaignID: "a", at: start.date, media: .picture, picture: "/img/a.jpg"),
            .notePictureUsed(path: "/img/a.jpg"),
            .emit(.splash(campaign: "a", remaining: 99, image: "/img/a.jpg", media: .picture)),
            .emit(.countdown(value: 3)),
            .expectFirstPicture("/img/a.jpg"),
        ])
        send(&state, .framePresented(.splash, sinceStart: 90, start), expecting: [
            .emit(.frame(scene: .splash)),
            .emit(.firstFrame(ms: 90)),
            .serviceReady,
            .fetchFeed,
            .reloadPoetry,
            .powerScreen(on: true),
        ])
        send(&state, .framePresented(.splash, sinceStart: 95, start), expecting: [.emit(.frame(scene: .splash))])
        send(&state, .tick(moved(start, to: "2026-12-01 22:00:00")), expecting: [
            .endShow(campaignID: "a", by: .screenOff, at: Self.at("2026-12-01 22:00:00")),
            .emit(.skip(by: .screenOff)),
            .powerScreen(on: false),
            .emit(.screen(on: false, reason: .schedule, until: Self.at("2026-12-02 07:30:00"))),
            .serviceScreen(dark: true, status: "screen off (schedule) until tomorrow 07:30"),
            .journalScreen(summary: "screen off (schedule) until tomorrow 07:30"),
        ])
        send(&state, .tick(moved(start, to: "2026-12-02 07:30:00")), expecting: Self.litAtHalfPastSeven)

        // Started in the dark: up at once, the screen said dark, and a journal entry.
        var (night, at) = try kiosk(time: "2026-12-01 23:00:00", started: false)
        send(&night, .started(at), expecting: [
            .placeholderPoem,
            .powerScreen(on: false),
            .emit(.screen(on: false, reason: .start, until: Self.at("2026-12-02 07:30:00"))),
            .serviceReady,
            .serviceScreen(dark: true, status: "screen off (schedule) until tomorrow 07:30"),
            .journalScreen(summary: "screen off (schedule) until tomorrow 07:30"),
            .fetchFeed,
            .reloadPoetry,
        ])
        send(&night, .framePresented(.splash, sinceStart: 90, at), expecting: [
            .emit(.frame(scene: .splash)),
            .emit(.firstFrame(ms: 90)),
        ])
    }

    @Test func theShowOnTheScreenWhenItGoesDarkEndsAsScreenOff() throws {
        var (state, start) = try kiosk(time: "2026-12-01 21:59:59")
        if case .splash = state.scene {} else { Issue.record("not on the splash") }
        send(&state, .tick(moved(start, to: "2026-12-01 22:00:00")), expecting: [
            .endShow(campaignID: "a", by: .screenOff, at: Self.at("2026-12-01 22:00:00")),
            .emit(.skip(by: .screenOff)),
            .powerScreen(on: false),
            .emit(.screen(on: false, reason: .schedule, until: Self.at("2026-12-02 07:30:00"))),
            .serviceScreen(dark: true, status: "screen off (schedule) until tomorrow 07:30"),
            .journalScreen(summary: "screen off (schedule) until tomorrow 07:30"),
        ])
        #expect(SkipReason.screenOff.outcome == .skipped)
    }

    @Test func aTouchWakesADarkScreenForItsSecondsAndClicksNothing() throws {
        var (state, start) = try kiosk(wake: 60, time: "2026-12-01 23:00:00", dark: true)
        #expect(!state.screenPower.isOn)
        // Without wake-on-touch nothing would happen; with it, the touch lights the screen
        // and a splash is shown (and counted), but the touch itself is not a click-through.
        let now = start.advanced(by: 5)
        send(&state, .pressed(Point(x: 640, y: 360), now), expecting: [
            .powerScreen(on: true),
            .emit(.screen(on: true, reason: .touch, until: now.date.addingTimeInterval(60))),
            .serviceScreen(dark: false, status: "screen on (woken by a touch) until 23:01"),
            .journalScreen(summary: "screen on (woken by a touch) until 23:01"),
            .recordShow(campaignID: "a", at: now.date, media: .picture, picture: "/img/a.jpg"),
            .notePictureUsed(path: "/img/a.jpg"),
            .emit(.splash(campaign: "a", remaining: 99, image: "/img/a.jpg", media: .picture)),
            .emit(.countdown(value: 3)),
            .expectFirstPicture("/img/a.jpg"),
        ])
        send(&state, .released(Point(x: 640, y: 360), now), expecting: [])
        // A touch while it is lit keeps it lit for the whole time again.
        send(&state, .pressed(Point(x: 10, y: 10), now.advanced(by: 40)), expecting: [])
        #expect(state.screenPower.wakeUntil == now.uptime + 100)
        #expect(state.nextDeadline.map { $0 <= now.uptime + 100 } == true)
        // Left alone, it goes dark again when the time is up, by the schedule. (The touch in the
        // corner was never let go: held that long, it has opened the operator view.)
        send(&state, .tick(now.advanced(by: 99)), expecting: [
            .endShow(campaignID: "a", by: .operatorView, at: now.advanced(by: 99).date),
            .emit(.skip(by: .operatorView)),
            .emit(.operatorView(open: true)),
            .emit(.operatorPage(1, of: 1, campaigns: ["a"])),
            .loadOperatorInfo(thumbnailsOf: ["a"]),
        ])
        #expect(state.screenPower.isOn)
        send(&state, .tick(now.advanced(by: 100)), expecting: [
            .emit(.operatorView(open: false)),
            .powerScreen(on: false),
            .emit(.screen(on: false, reason: .schedule, until: Self.at("2026-12-02 07:30:00"))),
            .serviceScreen(dark: true, status: "screen off (schedule) until tomorrow 07:30"),
            .journalScreen(summary: "screen off (schedule) until tomorrow 07:30"),
        ])
        start = now
    }

    @Test func withoutWakeOnTouchATouchLeavesTheScreenDark() throws {
        var (state, start) = try kiosk(wake: 0, time: "2026-12-01 23:00:00", dark: true)
        send(&state, .pressed(Point(x: 640, y: 360), start.advanced(by: 1)), expecting: [])
        #expect(!state.screenPower.isOn)
    }

    @Test func aCommandHoldsUntilTheScheduleNextChangesAndAutoGivesItBack() throws {
        var (state, start) = try kiosk(time: "2026-12-01 12:00:00")
        // Off at noon: dark until 22:00, when the schedule says off anyway (no change, no event).
        send(&state, .screenCommanded(.off, start.advanced(by: 1)), expecting: [
            .endShow(campaignID: "a", by: .screenOff, at: Self.at("2026-12-01 12:00:01")),
            .emit(.skip(by: .screenOff)),
            .powerScreen(on: false),
            .emit(.screen(on: false, reason: .command, until: Self.at("2026-12-01 22:00:00"))),
            .serviceScreen(dark: true, status: "screen off (splashboard screen off) until 22:00"),
            .journalScreen(summary: "screen off (splashboard screen off) until 22:00"),
        ])
        #expect(state.screenPower.summary(zone: Self.zone, deviceZone: Self.zone, now: start.date) == "screen off (splashboard screen off) until 22:00")
        send(&state, .tick(moved(start, to: "2026-12-01 22:00:00")), expecting: [])
        #expect(!state.screenPower.isOn && state.screenPower.reason == .schedule)
        #expect(state.screenPower.summary(zone: Self.zone, deviceZone: Self.zone, now: Self.at("2026-12-01 22:00:00"))
                == "screen off (schedule) until tomorrow 07:30")
        // On at night: lit until 07:30, when the schedule takes over (on as well).
        let night = moved(start, to: "2026-12-01 23:00:00")
        send(&state, .screenCommanded(.on, night), expecting: [
            .powerScreen(on: true),
            .emit(.screen(on: true, reason: .command, until: Self.at("2026-12-02 07:30:00"))),
            .serviceScreen(dark: false, status: "screen on (splashboard screen on) until tomorrow 07:30"),
            .journalScreen(summary: "screen on (splashboard screen on) until tomorrow 07:30"),
            .recordShow(campaignID: "a", at: night.date, media: .picture, picture: "/img/a.jpg"),
            .notePictureUsed(path: "/img/a.jpg"),
            .emit(.splash(campaign: "a", remaining: 98, image: "/img/a.jpg", media: .picture)),
            .emit(.countdown(value: 3)),
            .expectFirstPicture("/img/a.jpg"),
        ])
        // Auto: back to the schedule, dark at once (by the command; the schedule holds it so).
        send(&state, .screenCommanded(.auto, night.advanced(by: 60)), expecting: [
            .endShow(campaignID: "a", by: .screenOff, at: night.advanced(by: 60).date),
            .emit(.skip(by: .screenOff)),
            .powerScreen(on: false),
            .emit(.screen(on: false, reason: .command, until: Self.at("2026-12-02 07:30:00"))),
            .serviceScreen(dark: true, status: "screen off (schedule) until tomorrow 07:30"),
            .journalScreen(summary: "screen off (schedule) until tomorrow 07:30"),
        ])
        #expect(state.screenPower.reason == .schedule)
    }

    @Test func withNoScheduleACommandHoldsUntilAuto() throws {
        var (state, start) = try kiosk(hours: nil, time: "2026-12-01 12:00:00")
        #expect(state.screenPower.source == .none && state.screenPower.checkAt == nil)
        send(&state, .screenCommanded(.off, start), expecting: [
            .endShow(campaignID: "a", by: .screenOff, at: Self.at("2026-12-01 12:00:00")),
            .emit(.skip(by: .screenOff)),
            .powerScreen(on: false),
            .emit(.screen(on: false, reason: .command, until: nil)),
            .serviceScreen(dark: true, status: "screen off (splashboard screen off)"),
            .journalScreen(summary: "screen off (splashboard screen off)"),
        ])
        #expect(!state.screenPower.isOn && state.screenPower.until == nil)
        send(&state, .tick(start.advanced(by: 86_400 * 3)), expecting: [])
        #expect(!state.screenPower.isOn)
        send(&state, .screenCommanded(.auto, start.advanced(by: 86_400 * 3)), expecting: [
            .powerScreen(on: true),
            .emit(.screen(on: true, reason: .command, until: nil)),
            .serviceScreen(dark: false, status: "screen on (no schedule)"),
            .journalScreen(summary: "screen on (no schedule)"),
            .recordShow(campaignID: "a", at: start.advanced(by: 86_400 * 3).date, media: .picture, picture: "/img/a.jpg"),
            .notePictureUsed(path: "/img/a.jpg"),
            .emit(.splash(campaign: "a", remaining: 98, image: "/img/a.jpg", media: .picture)),
            .emit(.countdown(value: 3)),
            .expectFirstPicture("/img/a.jpg"),
        ])
        #expect(state.screenPower.isOn)
        #expect(state.screenPower.summary(zone: Self.zone, deviceZone: Self.zone, now: start.date) == "screen on (no schedule)")
        // With no schedule, "auto" gives the screen back to how the kiosk started, never to
        // a schedule there is not.
        #expect(state.screenPower.reason == .start)
    }

    @Test func aClockNotTrustedYetKeepsTheScreenOnUntilItIs() throws {
        var (state, start) = try kiosk(time: "2026-12-01 23:00:00", started: false)
        // timesyncd says the clock is not synchronized: a kiosk that does not know the time stays lit.
        send(&state, .clockObserved(.waiting, start), expecting: [
            .emit(.warning(message: "the clock is not set yet (2026-12-01T22:00:00Z): campaigns bound to dates and hours wait for it")),
        ])
        #expect(!state.clockTrusted)
        send(&state, .started(start), presenting: .splash, expecting: splashStarted(at: Self.at("2026-12-01 23:00:00"), remaining: 99) + firstFrame + [
            .powerScreen(on: true),
        ])
        #expect(state.screenPower.isOn)
        send(&state, .clockObserved(.synchronized, start.advanced(by: 30)), expecting: [
            .emit(.clockTrusted),
            .endShow(campaignID: "a", by: .screenOff, at: Self.at("2026-12-01 23:00:30")),
            .emit(.skip(by: .screenOff)),
            .powerScreen(on: false),
            .emit(.screen(on: false, reason: .schedule, until: Self.at("2026-12-02 07:30:00"))),
            .serviceScreen(dark: true, status: "screen off (schedule) until tomorrow 07:30"),
            .journalScreen(summary: "screen off (schedule) until tomorrow 07:30"),
        ])
        #expect(!state.screenPower.isOn)
    }

    @Test func aCommandGivenBeforeTheClockIsTrustedEndsWhenTheScheduleComesToSayOtherwise() throws {
        var (state, start) = try kiosk(time: "2026-12-01 23:00:00", started: false)
        send(&state, .clockObserved(.waiting, start), expecting: [
            .emit(.warning(message: "the clock is not set yet (2026-12-01T22:00:00Z): campaigns bound to dates and hours wait for it")),
        ])
        send(&state, .started(start), presenting: .splash, expecting: splashStarted(at: Self.at("2026-12-01 23:00:00"), remaining: 99) + firstFrame + [
            .powerScreen(on: true),
        ])
        // Untrusted, the schedule says on and knows no change: `off` holds with no end in sight.
        send(&state, .screenCommanded(.off, start.advanced(by: 1)), expecting: [
            .endShow(campaignID: "a", by: .screenOff, at: Self.at("2026-12-01 23:00:01")),
            .emit(.skip(by: .screenOff)),
            .powerScreen(on: false),
            .emit(.screen(on: false, reason: .command, until: nil)),
            .serviceScreen(dark: true, status: "screen off (splashboard screen off)"),
            .journalScreen(summary: "screen off (splashboard screen off)"),
        ])
        #expect(!state.screenPower.isOn && state.screenPower.until == nil)
        // Trusted, the schedule says off (23:00): the command's time is over, the schedule holds it dark.
        send(&state, .clockObserved(.synchronized, start.advanced(by: 2)), expecting: [.emit(.clockTrusted)])
        #expect(!state.screenPower.isOn && state.screenPower.override == nil && state.screenPower.reason == .schedule)
        // And it lights at 07:30, as the schedule says.
        send(&state, .tick(moved(start, to: "2026-12-02 07:30:00")), expecting: Self.litAtHalfPastSeven)
        #expect(state.screenPower.isOn)
    }

    @Test func aCommandWhileLitSaysSoInTheStatus() throws {
        var (state, start) = try kiosk(time: "2026-12-01 12:00:00")
        send(&state, .screenCommanded(.on, start.advanced(by: 1)), expecting: [])
        #expect(state.screenPower.reason == .command)
        #expect(state.screenPower.summary(zone: Self.zone, deviceZone: Self.zone, now: start.date) == "screen on (splashboard screen on) until 22:00")
    }

    @Test func aKioskStartedDarkSyncsAtOnceShowsNothingAndLightsOnTime() throws {
        var (state, start) = try kiosk(time: "2026-12-01 06:00:00", started: false)
        send(&state, .started(start), expecting: [
            .placeholderPoem,
            .powerScreen(on: false),
            .emit(.screen(on: false, reason: .start, until: Self.at("2026-12-01 07:30:00"))),
            .serviceReady,
            .serviceScreen(dark: true, status: "screen off (schedule) until 07:30"),
            .journalScreen(summary: "screen off (schedule) until 07:30"),
            .fetchFeed,
            .reloadPoetry,
        ])
        #expect(state.nextDeadline == start.uptime + 90 * 60)
        // Its first frame asks for no second sync.
        send(&state, .tick(moved(start, to: "2026-12-01 07:30:00")), presenting: .splash, expecting: [
            .powerScreen(on: true),
            .emit(.screen(on: true, reason: .schedule, until: Self.at("2026-12-01 22:00:00"))),
            .serviceScreen(dark: false, status: "screen on (schedule) until 22:00"),
            .journalScreen(summary: "screen on (schedule) until 22:00"),
            .recordShow(campaignID: "a", at: Self.at("2026-12-01 07:30:00"), media: .picture, picture: "/img/a.jpg"),
            .notePictureUsed(path: "/img/a.jpg"),
            .emit(.splash(campaign: "a", remaining: 99, image: "/img/a.jpg", media: .picture)),
            .emit(.countdown(value: 3)),
            .expectFirstPicture("/img/a.jpg"),
            .emit(.frame(scene: .splash)),
            .emit(.firstFrame(ms: 100)),
        ])
        #expect(state.framesPresented == 1)
    }

    @Test func aKioskStartedInItsHoursWakesItsScreenAfterTheFirstFrameOnlyWithASchedule() throws {
        let (_, _) = try kiosk()
        var state = makeState()
        send(&state, .started(ManualClock().now), presenting: .splash,
             expecting: splashStarted(at: date(after: 0), remaining: 4) + firstFrame)
        var (scheduled, start) = try kiosk(started: false)
        // Lit after the first frame.
        send(&scheduled, .started(start), presenting: .splash, expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: Self.at("2026-12-01 22:00:00"))),
            .recordShow(campaignID: "a", at: start.date, media: .picture, picture: "/img/a.jpg"),
            .notePictureUsed(path: "/img/a.jpg"),
            .emit(.splash(campaign: "a", remaining: 99, image: "/img/a.jpg", media: .picture)),
            .emit(.countdown(value: 3)),
            .expectFirstPicture("/img/a.jpg"),
        ] + firstFrame + [.powerScreen(on: true)])
        start = start.advanced(by: 0)
    }

    @Test func theFeedsScheduleAppliesUnlessTheDeviceSetsOne() throws {
        var (state, start) = try kiosk(hours: nil, time: "2026-12-01 12:00:00")
        // The fleet's schedule, in Tokyo: 12:00 in Berlin is 20:00 there, outside 08:00-19:00.
        let feed = FeedScreen(hours: "08:00-19:00", timezone: "Asia/Tokyo")
        let report = SyncReport(status: .ok, campaigns: 1, error: nil)
        send(&state, .feedFetched(report, catalog: state.catalog, message: nil, screen: feed, start.advanced(by: 1)), expecting: [
            .emit(.sync(status: .ok, campaigns: 1, error: nil, ms: nil, reason: nil)),
            .endShow(campaignID: "a", by: .screenOff, at: Self.at("2026-12-01 12:00:01")),
            .emit(.skip(by: .screenOff)),
            .powerScreen(on: false),
            .emit(.screen(on: false, reason: .schedule, until: Self.at("2026-12-02 00:00:00"))),
            .serviceScreen(dark: true, status: "screen off (the feed's schedule) until tomorrow 08:00 (Asia/Tokyo time)"),
            .journalScreen(summary: "screen off (the feed's schedule) until tomorrow 08:00 (Asia/Tokyo time)"),
        ])
        #expect(state.screenPower.source == .feed && !state.screenPower.isOn)
        // Said in the schedule's zone, named, as it is not the device's.
        #expect(Kiosk.screenSummary(of: state, now: start.date)
                == "screen off (the feed's schedule) until tomorrow 08:00 (Asia/Tokyo time)")
        // A 304 brings no catalog: the schedule stays.
        send(&state, .feedFetched(SyncReport(status: .notModified, campaigns: 1, error: nil), catalog: nil, message: nil, screen: nil,
                                      start.advanced(by: 2)), expecting: [
            .emit(.sync(status: .notModified, campaigns: 1, error: nil, ms: nil, reason: nil)),
        ])
        #expect(state.screenPower.source == .feed)
        // The device's own hours win.
        var (own, ownStart) = try kiosk(time: "2026-12-01 12:00:00")
        send(&own, .feedFetched(report, catalog: own.catalog, message: nil, screen: feed, ownStart.advanced(by: 1)), expecting: [
            .emit(.sync(status: .ok, campaigns: 1, error: nil, ms: nil, reason: nil)),
        ])
        #expect(own.screenPower.source == .config && own.screenPower.isOn)
        // A feed that drops its schedule leaves the screen on.
        send(&state, .feedFetched(report, catalog: state.catalog, message: nil, screen: nil, start.advanced(by: 3)), expecting: [
            .emit(.sync(status: .ok, campaigns: 1, error: nil, ms: nil, reason: nil)),
            .powerScreen(on: true),
            .emit(.screen(on: true, reason: .start, until: nil)),
            .serviceScreen(dark: false, status: "screen on (no schedule)"),
            .recordShow(campaignID: "a", at: Self.at("2026-12-01 12:00:03"), media: .picture, picture: "/img/a.jpg"),
            .notePictureUsed(path: "/img/a.jpg"),
            .emit(.splash(campaign: "a", remaining: 98, image: "/img/a.jpg", media: .picture)),
            .emit(.countdown(value: 3)),
            .expectFirstPicture("/img/a.jpg"),
        ])
        #expect(state.screenPower.source == .none && state.screenPower.isOn)
        ownStart = start
    }

    @Test func theTimeInEachStateIsCounted() throws {
        var (state, start) = try kiosk(time: "2026-12-01 21:00:00")
        send(&state, .tick(moved(start, to: "2026-12-01 22:00:00")), expecting: [
            .endShow(campaignID: "a", by: .screenOff, at: Self.at("2026-12-01 22:00:00")),
            .emit(.skip(by: .screenOff)),
            .powerScreen(on: false),
            .emit(.screen(on: false, reason: .schedule, until: Self.at("2026-12-02 07:30:00"))),
            .serviceScreen(dark: true, status: "screen off (schedule) until tomorrow 07:30"),
            .journalScreen(summary: "screen off (schedule) until tomorrow 07:30"),
        ])
        let totals = state.screenPower.totals(at: start.uptime + 5400)
        #expect(totals.on == 3600 && totals.off == 1800)
    }
}

/// The schedule's words: the config's keys and their mistakes, the feed's `screen` object
/// and its, the control socket's request.
@Suite struct ScreenScheduleWordsTests {
    @Test func theConfigKeysAndTheirMistakes() throws {
        let o = try parse(["--screen-hours", "07:30-12:00, 13:00-22:00", "--screen-days", "mon,tue", "--screen-off-dates",
                           "2026-12-25", "--screen-off", "signal,cec", "--wake-on-touch", "120"]).options
        #expect(o.screenSchedule.hours.map(\.text) == ["07:30-12:00", "13:00-22:00"])
        #expect(o.screenSchedule.days == [.mon, .tue] && o.screenSchedule.offDates == ["2026-12-25"])
        #expect(o.screenOff == [.signal, .cec] && o.wakeOnTouch == 120)
        #expect(try parse(["--screen-off", "none"]).options.screenOff.isEmpty)
        #expect(try parse([]).options.screenOff == [.cec, .signal, .backlight])
        // Each mistake names its key (or the config file's line) and how to write it.
        let hours = parseError(["--config", "/k.conf"], config: ["/k.conf": "screen-hours = 7:30-22:00\r\n"])
        #expect(hours?.source == "/k.conf:1: screen-hours" && hours?.problem.contains("HH:MM-HH:MM") == true,
                "\(String(describing: hours))")
        #expect(parseError(["--screen-days", "monday"])?.problem.contains("mon, tue") == true)
        #expect(parseError(["--screen-off-dates", "2026-02-30"])?.problem.contains("YYYY-MM-DD") == true)
        #expect(parseError(["--screen-off", "hdmi"])?.problem.contains("cec, signal and backlight") == true)
        #expect(parseError(["--wake-on-touch", "-1"]) != nil)
        #expect(try parse(["screen", "off"]).command == .screen(.off))
        #expect(parseError(["screen"])?.problem.contains("on, off or auto") == true)
    }

    @Test func theFeedsScreenObject() throws {
        let url = URL(string: "https://feeds.example.test/feed.json")!
        func decode(_ json: String) throws -> FeedDocument {
            try FeedDocument.decode(Data(json.utf8), from: url, deviceZone: .gmt)
        }
        let pic = #"[{"picUrl": "a.jpg", "showTime": 1}]"#
        let both = try decode(#"{"campaigns": \#(pic), "timezone": "Asia/Shanghai", "#
                              + #""screen": {"hours": ["07:30-12:00", "13:00-22:00"], "days": "mon,tue", "offDates": ["2026-12-25"]}}"#)
        #expect(both.screen == FeedScreen(hours: "07:30-12:00, 13:00-22:00", days: "mon, tue", offDates: "2026-12-25",
                                          timezone: "Asia/Shanghai"))
        #expect(both.warnings.isEmpty)
        #expect(try both.screen?.schedule().hours.count == 2)
        // What cannot be read is left out by name; the rest applies.
        let bad = try decode(#"{"campaigns": \#(pic), "screen": {"hours": ["7-22"], "days": ["mon"], "offdates": [], "timezone": "Mars/Base"}}"#)
        #expect(bad.screen == FeedScreen(days: "mon"))
        #expect(bad.warnings.contains { $0.hasPrefix("screen.hours: \"7-22\" is not a window of the day") }, "\(bad.warnings)")
        #expect(bad.warnings.contains { $0.hasPrefix("screen.offdates: unknown field; did you mean offDates?") }, "\(bad.warnings)")
        #expect(bad.warnings.contains { $0 == #"screen.timezone: "Mars/Base" is not a zone this device knows; use an IANA zone like "Asia/Shanghai" or "Europe/Berlin"; the feed's timezone is used where it has a valid one, else the device's"# }, "\(bad.warnings)")
        let notObject = try decode(#"{"campaigns": \#(pic), "screen": "07:00-22:00"}"#)
        #expect(notObject.screen == nil && notObject.warnings.contains { $0.hasPrefix("screen: must be an object") })
        // Stored and read back as it was.
        #expect(FeedScreen(stored: both.screen?.stored) == both.screen)
        #expect(FeedScreen(stored: "not json") == nil)
    }

    @Test func theControlSocketsScreenRequest() throws {
        for command in ScreenCommand.allCases {
            #expect(try ControlRequest.parse(ControlRequest.screen(command).line) == .screen(command))
        }
        #expect(throws: ControlError.self) { try ControlRequest.parse(Data(#"{"command":"screen","state":"dim"}"#.utf8)) }
        #expect(try ControlRequest.parse(ControlRequest.status.line) == .status)
    }
}

/// A spring-forward night on the manual clock: the deadline is the real time to the change.
@Suite struct ScreenPowerDSTTests {
    @Test func anOvernightWindowEndingInTheSkippedHourEndsAtTheFirstMomentAfterIt() throws {
        var settings = KioskSettings(countdown: 3, attractAfter: 10, defaultImage: "/assets/default.jpg", pick: .newest,
                                     timeZone: ScreenPowerTests.zone)
        settings.screenSchedule = try ScreenSchedule(hoursText: "20:00-02:30", daysText: nil, offDatesText: nil)
        var state = KioskState(settings: settings, screen: Size(width: 1280, height: 720))
        state.catalog = [entry("a", showLimit: 100)]
        // Berlin, 28 March 2027: 02:00 CET is 03:00 CEST. At 01:59 the window has one real minute left.
        let now = Instant(uptime: 0, date: ScreenPowerTests.at("2027-03-28 01:59:00"))
        send(&state, .started(now), presenting: .splash, expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: ScreenPowerTests.at("2027-03-28 03:00:00"))),
            .recordShow(campaignID: "a", at: now.date, media: .picture, picture: "/img/a.jpg"),
            .notePictureUsed(path: "/img/a.jpg"),
            .emit(.splash(campaign: "a", remaining: 99, image: "/img/a.jpg", media: .picture)),
            .emit(.countdown(value: 3)),
            .expectFirstPicture("/img/a.jpg"),
            .emit(.frame(scene: .splash)),
            .emit(.firstFrame(ms: 100)),
            .serviceReady,
            .fetchFeed,
            .reloadPoetry,
            .powerScreen(on: true),
        ])
        #expect(state.screenPower.isOn)
        #expect(state.screenPower.checkAt == 60)
        send(&state, .tick(now.advanced(by: 60)), expecting: [
            .endShow(campaignID: "a", by: .screenOff, at: ScreenPowerTests.at("2027-03-28 03:00:00")),
            .emit(.skip(by: .screenOff)),
            .powerScreen(on: false),
            .emit(.screen(on: false, reason: .schedule, until: ScreenPowerTests.at("2027-03-28 20:00:00"))),
            .serviceScreen(dark: true, status: "screen off (schedule) until 20:00"),
            .journalScreen(summary: "screen off (schedule) until 20:00"),
        ])
    }
}

/// A run stopped while dark leaves the next one to light the screen, schedule or not.
@Suite struct ScreenLeftDarkTests {
    @Test func aKioskALastRunLeftDarkLightsItsScreenAfterItsFirstFrame() {
        var state = makeState()
        state.settings.screenLeftDark = true
        send(&state, .started(ManualClock().now), presenting: .splash,
             expecting: splashStarted(at: date(after: 0), remaining: 4) + firstFrame + [.powerScreen(on: true)])
        // Without the marker (and no schedule) the means are never touched.
        var plain = makeState()
        send(&plain, .started(ManualClock().now), presenting: .splash,
             expecting: splashStarted(at: date(after: 0), remaining: 4) + firstFrame)
    }
}

/// The screen power's child reducer alone, on the `ScreenPower` it is handed: an
/// override lasts until the schedule's next change, a touch's wake ends at its time, and
/// the time spent lit and dark is kept.
@Suite struct ScreenPowerRulesTests {
    @Test func anOverrideLastsUntilTheScheduleChangesAndAWakeUntilItsTime() throws {
        let zone = ScreenPowerTests.zone
        var power = ScreenPower()
        power.configSchedule = try ScreenSchedule(hoursText: "07:30-22:00", daysText: nil, offDatesText: nil)
        let evening = Instant(uptime: 100, date: ScreenPowerTests.at("2026-12-01 21:00:00"))
        #expect(!ScreenPowerRules.update(&power, deviceZone: zone, clockTrusted: true, evening))
        #expect(power.isOn && power.reason == .schedule && power.until == ScreenPowerTests.at("2026-12-01 22:00:00"))

        ScreenPowerRules.command(&power, .off, deviceZone: zone, clockTrusted: true, evening)
        #expect(ScreenPowerRules.update(&power, deviceZone: zone, clockTrusted: true, evening))
        #expect(!power.isOn && power.reason == .command)
        // At 22:00 the schedule says dark on its own: the override has ended, the screen stays dark.
        let late = evening.advanced(by: 3600)
        #expect(!ScreenPowerRules.update(&power, deviceZone: zone, clockTrusted: true, late))
        #expect(power.override == nil && power.reason == .schedule && !power.isOn)
        let totals = power.totals(at: late.uptime)
        #expect(totals.on == 100 && totals.off == 3600)

        // A touch lights it for 30 s, then it is dark again.
        ScreenPowerRules.wake(&power, for: 30, late)
        #expect(ScreenPowerRules.update(&power, deviceZone: zone, clockTrusted: true, late))
        #expect(power.isOn && power.reason == .touch && power.checkAt == late.uptime + 30)
        #expect(ScreenPowerRules.update(&power, deviceZone: zone, clockTrusted: true, late.advanced(by: 30)))
        #expect(!power.isOn && power.wakeUntil == nil)
    }

    @Test func statusNamesTheScheduleInForceWithItsGroupAndZone() throws {
        let doc = try FeedDocument.decode(Data(#"""
            {"screen": {"hours": ["06:00-23:00"]},
             "groups": {"cafe": {"screen": {"hours": ["07:00-15:00"], "days": ["mon", "tue"], "timezone": "Asia/Shanghai"}}},
             "campaigns": []}
            """#.utf8), from: URL(string: "https://x.test/f.json")!, deviceZone: .gmt)
        var state = makeState([])
        #expect(Kiosk.scheduleInForce(of: state) == "none: the screen is always on")
        let cafe = doc.screen(for: DeviceGroups(names: ["cafe"], deviceID: "k")).screen
        // Kept as the feed's state keeps it, and read back.
        _ = Kiosk.takeFeedScreen(&state, cafe.flatMap { FeedScreen(stored: $0.stored) }, nil)
        #expect(Kiosk.scheduleInForce(of: state) == "the feed's, for the group cafe: hours 07:00-15:00; days mon, tue; in Asia/Shanghai")
        _ = Kiosk.takeFeedScreen(&state, doc.screen(for: DeviceGroups(names: ["lobby"], deviceID: "k")).screen, nil)
        #expect(Kiosk.scheduleInForce(of: state) == "the feed's: hours 06:00-23:00; in \(state.settings.timeZone.identifier)")
    }
}
