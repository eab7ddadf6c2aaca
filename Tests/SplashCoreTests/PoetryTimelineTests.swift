import Foundation
import Testing
@testable import SplashCore

@Suite struct PoetryTimelineTests {
    let poems = (1...5).map { Poem(content: "第\($0)句，第\($0)行。", origin: "诗\($0)", author: "作者") }

    func liveEntry(_ origin: String, image: String? = nil) -> PoetryEntry {
        PoetryEntry(origin: origin, lines: ["一行"], imageURL: image.map { URL(string: $0)! }, source: .timeline)
    }

    func state(cached: PoetryEntry? = nil) -> KioskState {
        var s = makeState([], attract: 0)
        s.settings.poetryRefresh = 300
        s.poetry = PoetryState(entry: cached ?? .placeholder, refresh: 300,
                               fallback: BundledPoetryProvider(poems: poems, refresh: 300))
        return s
    }

    @Test func theBundledProviderRotatesAndPlansTwelveEntries() {
        let provider = BundledPoetryProvider(poems: poems, refresh: 300)
        let t0 = Date(timeIntervalSince1970: 300 * 1000 + 10)
        #expect(provider.placeholder() == .placeholder)
        let timeline = provider.timeline(at: t0)
        #expect(timeline.items.count == 12)
        #expect(timeline.policy == .atEnd)
        #expect(timeline.items[0].entry.origin == "诗1")  // slot 1000 % 5 == 0
        #expect(timeline.items[1].date == Date(timeIntervalSince1970: 300 * 1001))
        #expect(timeline.items[1].entry.origin == "诗2")
        #expect(timeline.items.allSatisfy { $0.entry.source == .bundled })
        #expect(timeline.reloadDate == timeline.items.last?.date)
        #expect(provider.snapshot(at: t0.addingTimeInterval(600)).origin == "诗3")
    }

    @Test func linesAreVerses() {
        #expect(PoetryEntry.lines(of: "空门寂寞汝思家，礼别云房下九华。") == ["空门寂寞汝思家，", "礼别云房下九华。"])
        #expect(PoetryEntry.lines(of: "我要傍近你\n方不至于难过") == ["我要傍近你", "方不至于难过"])
    }

    @Test func aLiveEntryReloadsAfterTheRefreshPeriod() {
        var s = state()
        var clock = ManualClock()
        send(&s, .started(clock.now), presenting: .splash, expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .emit(.splash(campaign: nil, remaining: nil, image: "/assets/default.jpg", media: .picture)),
            .emit(.countdown(value: 3)),
        ] + firstFrame)
        #expect(!s.poetry.settled)
        reduce(&s, .poetryLoaded(Timeline(items: [.init(date: clock.now.date, entry: liveEntry("A"))],
                                          policy: .after(clock.now.date.addingTimeInterval(300))), clock.advance(0.2)),
               expecting: [.savePoetry(liveEntry("A")), .emit(.poetry(source: .timeline, origin: "A"))])
        #expect(abs(s.poetry.reloadAt! - 300) < 1e-6)
        reduce(&s, .keyPressed(.escape, clock.now), expecting: [.emit(.skip(by: .key)), .emit(.detail(campaign: nil))])
        reduce(&s, .tick(clock.advance(299)), expecting: [])
        reduce(&s, .tick(clock.advance(0.8)), expecting: [.reloadPoetry])
    }

    @Test func failuresKeepTheLastGoodEntryAndBackOff() {
        var s = state()
        var clock = ManualClock()
        reduce(&s, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .emit(.splash(campaign: nil, remaining: nil, image: "/assets/default.jpg", media: .picture)),
            .emit(.countdown(value: 3)),
        ])
        reduce(&s, .poetryLoaded(Timeline(items: [.init(date: clock.now.date, entry: liveEntry("A"))],
                                                    policy: .after(clock.now.date.addingTimeInterval(300))), clock.now), expecting: [
            .savePoetry(PoetryEntry(origin: "A", author: nil, lines: ["一行"], imagePath: nil, imageURL: nil, source: .timeline)),
            .emit(.poetry(source: .timeline, origin: "A")),
        ])
        var waits: [Seconds] = []
        reduce(&s, .tick(clock.advance(300)), expecting: [
            .reloadPoetry,
            .emit(.skip(by: .timeout)),
            .emit(.detail(campaign: nil)),
        ])
        for _ in 0..<6 {
            reduce(&s, .poetryFailed(reason: "server down", clock.now), expecting: [.emit(.warning(message: "poetry: server down"))])
            #expect(s.poetry.entry.origin == "A")
            let due = s.poetry.reloadAt!
            waits.append(due - clock.now.uptime)
            reduce(&s, .tick(clock.advance(due - clock.now.uptime)), expecting: [.reloadPoetry])
        }
        #expect(waits == [30, 60, 120, 240, 300, 300])
    }

    @Test func withNothingRealYetAFailureShowsABundledPoemNotThePlaceholder() {
        var s = state()
        let clock = ManualClock()
        reduce(&s, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .emit(.splash(campaign: nil, remaining: nil, image: "/assets/default.jpg", media: .picture)),
            .emit(.countdown(value: 3)),
        ])
        reduce(&s, .poetryFailed(reason: "offline", clock.now), expecting: [
            .emit(.warning(message: "poetry: offline")),
            .emit(.poetry(source: .bundled, origin: "诗2")),
        ])
        #expect(s.poetry.entry.source == .bundled)
    }

    @Test func theCachedEntryIsShownAtStartAndKeptOnFailure() {
        var s = state(cached: PoetryEntry(origin: "旧诗", lines: ["旧"], source: .cache))
        let clock = ManualClock()
        reduce(&s, .started(clock.now), expecting: [
            .emit(.poetry(source: .cache, origin: "旧诗")),
            .emit(.screen(on: true, reason: .start, until: nil)),
            .emit(.splash(campaign: nil, remaining: nil, image: "/assets/default.jpg", media: .picture)),
            .emit(.countdown(value: 3)),
        ])
        reduce(&s, .poetryFailed(reason: "offline", clock.now), expecting: [
            .emit(.warning(message: "poetry: offline")),
        ])
        #expect(s.poetry.entry.origin == "旧诗")
        #expect(s.poetry.entry.source == .cache)
    }

    /// Started with no campaign (the default picture) and skipped to the detail screen.
    func detailScreen(_ s: inout KioskState, _ clock: ManualClock, sourceLocation: SourceLocation = #_sourceLocation) {
        reduce(&s, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .emit(.splash(campaign: nil, remaining: nil, image: "/assets/default.jpg", media: .picture)),
            .emit(.countdown(value: 3)),
        ], sourceLocation: sourceLocation)
        reduce(&s, .keyPressed(.escape, clock.now), expecting: [.emit(.skip(by: .key)), .emit(.detail(campaign: nil))],
               sourceLocation: sourceLocation)
    }

    @Test func scheduledEntriesComeDueWithoutAReload() {
        var s = state()
        var clock = ManualClock()
        detailScreen(&s, clock)
        let provider = BundledPoetryProvider(poems: poems, refresh: 300)
        reduce(&s, .poetryLoaded(provider.timeline(at: clock.now.date), clock.now), expecting: [
            .emit(.poetry(source: .bundled, origin: "诗2")),
        ])
        let first = s.poetry.entry.origin
        let due = s.nextDeadline!
        #expect(due <= 300)
        reduce(&s, .tick(clock.advance(due)), expecting: [.emit(.poetry(source: .bundled, origin: "诗3"))])
        #expect(s.poetry.entry.origin != first)
        #expect(s.poetry.upcoming.count == 10)
    }

    @Test func aPictureLoadsWithASpinnerOnlyWhileThereIsNone() {
        var s = state()
        var clock = ManualClock()
        detailScreen(&s, clock)
        let url = "http://127.0.0.1:9/p.png"
        reduce(&s, .poetryLoaded(Timeline(items: [.init(date: clock.now.date, entry: liveEntry("A", image: url))], policy: .never),
                                 clock.now), expecting: [
            .loadPoetryImage(URL(string: url)!),
            .savePoetry(liveEntry("A", image: url)),
            .emit(.poetry(source: .timeline, origin: "A")),
        ])
        #expect(s.poetry.spinning)
        guard case .detail(let d0) = s.scene else { Issue.record("not on detail"); return }
        #expect(d0.spinnerPhase == 0)
        // The spinner steps twelve times a second while on the detail screen.
        let step = s.nextDeadline!
        #expect(abs(step - clock.now.uptime - 1.0 / 12) < 1e-9)
        reduce(&s, .tick(clock.advance(1.0 / 12)), expecting: [])
        guard case .detail(let d1) = s.scene else { Issue.record("left the detail screen on a tick"); return }
        #expect(d1.spinnerPhase == 1)
        reduce(&s, .poetryImageLoaded(url: url, path: "/cache/p", reason: nil, clock.advance(0.05)), expecting: [
            .savePoetry(PoetryEntry(origin: "A", author: nil, lines: ["一行"], imagePath: "/cache/p", imageURL: URL(string: "http://127.0.0.1:9/p.png")!, source: .timeline)),
        ])
        #expect(!s.poetry.spinning && s.poetry.settled)
        guard case .detail(let d2) = s.scene else { Issue.record("left the detail screen as the picture came"); return }
        #expect(d2.spinnerPhase == nil)
        #expect(d2.poetry.imagePath == "/cache/p")
        #expect(s.nextDeadline == nil)
        // The next poem keeps the old picture while its own loads: no spinner.
        reduce(&s, .poetryLoaded(Timeline(items: [.init(date: clock.now.date, entry: liveEntry("B", image: url))],
                                                    policy: .never), clock.now), expecting: [
            .loadPoetryImage(URL(string: "http://127.0.0.1:9/p.png")!),
            .savePoetry(PoetryEntry(origin: "B", author: nil, lines: ["一行"], imagePath: "/cache/p", imageURL: URL(string: "http://127.0.0.1:9/p.png")!, source: .timeline)),
            .emit(.poetry(source: .timeline, origin: "B")),
        ])
        #expect(!s.poetry.spinning)
        #expect(s.poetry.entry.imagePath == "/cache/p")
        #expect(s.poetry.imageLoading == url)
    }

    @Test func jinrishiciAnswers() throws {
        let poem = try Poem.decode(Data(#"{"content":"空门寂寞汝思家，礼别云房下九华。","origin":"送童子下山","author":"金地藏","category":"古诗文-抒情-思念"}"#.utf8))
        #expect(poem.origin == "送童子下山")
        #expect(poem.author == "金地藏")
        #expect(try Poem.decode(Data(#"{"content":"一句","origin":"题"}"#.utf8)).author == nil)
        #expect(throws: PoemError.self) { try Poem.decode(Data(#"{"origin":"题"}"#.utf8)) }
        #expect(throws: PoemError.self) { try Poem.decode(Data("<html>".utf8)) }
    }

    @Test func theBundledCollectionIsComplete() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("assets/poems.json")
        let poems = try Poem.decodeList(Data(contentsOf: file))
        #expect(poems.count >= 30)
        #expect(poems.allSatisfy { $0.author != nil && !$0.origin.isEmpty })
        #expect(Set(poems.map(\.origin)).count == poems.count)
    }

    /// The panel is a feature of its own: its rules change only the `PoetryState` handed to
    /// them, and the spinner steps only while the panel is on the screen.
    @Test func thePanelsRulesRunOnItsOwnState() {
        var poetry = PoetryState(refresh: 300)
        let clock = ManualClock()
        let url = "http://127.0.0.1:9/p.png"
        let timeline = Timeline(items: [.init(date: clock.now.date, entry: liveEntry("A", image: url))], policy: .never)
        #expect(PoetryRules.loaded(&poetry, timeline, clock.now) == [
            .loadPoetryImage(URL(string: url)!), .savePoetry(poetry.entry), .emit(.poetry(source: .timeline, origin: "A")),
        ])
        #expect(poetry.spinning && poetry.entry.origin == "A")
        let later = clock.now.advanced(by: 1)
        #expect(PoetryRules.advance(&poetry, onScreen: false, later) == [] && poetry.spinnerPhase == 0)
        #expect(PoetryRules.advance(&poetry, onScreen: true, later) == [] && poetry.spinnerPhase == 1)
    }
}
