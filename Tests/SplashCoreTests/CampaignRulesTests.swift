import Foundation
import Testing
@testable import SplashCore

/// The campaign rules with a manual clock: dayparts (overnight, DST), days, the daily cap,
/// spacing on both clocks, priority, rotation, per-campaign countdown, an untrusted clock.
@Suite struct CampaignRulesTests {
    /// `2026-MM-DDTHH:MM:SS` in `zone`.
    func at(_ text: String, _ zone: String) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        let p = text.split { $0 == "-" || $0 == "T" || $0 == ":" }.map { Int($0)! }
        return calendar.date(from: DateComponents(year: p[0], month: p[1], day: p[2], hour: p[3], minute: p[4],
                                                  second: p.count > 5 ? p[5] : 0))!
    }

    func ruled(_ id: Campaign.ID = "a", zone: String, hours: [String] = [], days: [String] = [],
               configure: (inout Campaign) -> Void = { _ in }) -> CatalogEntry {
        var e = entry(id, showLimit: 100)
        e.campaign.timeZone = zone
        e.campaign.hours = hours.compactMap(DailyWindow.init)
        e.campaign.days = Set(days.compactMap(Weekday.init))
        configure(&e.campaign)
        return e
    }

    let context = RuleContext(clockTrusted: true, deviceTimeZone: .gmt)

    @Test func hoursAreLocalTimeInTheFeedsZone() {
        let e = ruled(zone: "Asia/Shanghai", hours: ["09:00-12:00"])
        #expect(e.ineligibility(at: at("2026-05-04T08:59", "Asia/Shanghai"), context: context) == "outside its hours")
        #expect(e.ineligibility(at: at("2026-05-04T09:00", "Asia/Shanghai"), context: context) == nil)
        #expect(e.ineligibility(at: at("2026-05-04T12:00", "Asia/Shanghai"), context: context) == "outside its hours")
        #expect(CampaignRules.nextEligible(e, after: at("2026-05-04T08:59", "Asia/Shanghai"), context: context)
                == at("2026-05-04T09:00", "Asia/Shanghai"))
        // After the window the next one is tomorrow's.
        #expect(CampaignRules.nextEligible(e, after: at("2026-05-04T13:00", "Asia/Shanghai"), context: context)
                == at("2026-05-05T09:00", "Asia/Shanghai"))
        // Without a zone of its own, the device's.
        var local = e
        local.campaign.timeZone = nil
        let berlin = RuleContext(clockTrusted: true, deviceTimeZone: Zone(identifier: "Europe/Berlin")!)
        #expect(local.ineligibility(at: at("2026-05-04T09:30", "Europe/Berlin"), context: berlin) == nil)
        #expect(local.ineligibility(at: at("2026-05-04T09:30", "Asia/Shanghai"), context: berlin) == "outside its hours")
    }

    @Test func anOvernightWindowBelongsToTheDayItBegan() {
        // 2026-05-08 is a Friday.
        let e = ruled(zone: "Asia/Shanghai", hours: ["22:00-02:00"], days: ["fri"])
        let z = "Asia/Shanghai"
        #expect(e.ineligibility(at: at("2026-05-08T21:59", z), context: context) == "outside its hours")
        #expect(e.ineligibility(at: at("2026-05-08T23:00", z), context: context) == nil)
        #expect(e.ineligibility(at: at("2026-05-09T01:59", z), context: context) == nil)  // Saturday, Friday's night
        #expect(e.ineligibility(at: at("2026-05-09T02:00", z), context: context) == "outside its hours")
        #expect(e.ineligibility(at: at("2026-05-09T23:00", z), context: context) == "outside its hours")
        #expect(e.ineligibility(at: at("2026-05-10T01:00", z), context: context) == "not today")  // Saturday's night: no
        #expect(e.ineligibility(at: at("2026-05-06T12:00", z), context: context) == "not today")
        #expect(CampaignRules.nextEligible(e, after: at("2026-05-06T12:00", z), context: context) == at("2026-05-08T22:00", z))
    }

    @Test func daylightSavingNightsInBerlin() {
        let z = "Europe/Berlin"
        // Spring: 2026-03-29 02:00 CET becomes 03:00 CEST; 02:30 does not exist that night.
        let spring = ruled(zone: z, hours: ["02:30-03:30"])
        let before = Date(timeIntervalSince1970: 1_774_745_940)  // 00:59Z = 01:59 CET
        #expect(spring.ineligibility(at: before, context: context) == "outside its hours")
        let next = CampaignRules.nextEligible(spring, after: before, context: context)
        #expect(next == Date(timeIntervalSince1970: 1_774_746_000))  // 01:00Z = 03:00 CEST, the first moment after 02:30
        #expect(spring.ineligibility(at: Date(timeIntervalSince1970: 1_774_746_900), context: context) == nil)  // 03:15 CEST
        #expect(spring.ineligibility(at: Date(timeIntervalSince1970: 1_774_747_800), context: context) == "outside its hours")
        // Autumn: 2026-10-25 03:00 CEST becomes 02:00 CET; 02:30 comes twice, both inside.
        let autumn = ruled(zone: z, hours: ["02:00-03:00"])
        #expect(autumn.ineligibility(at: Date(timeIntervalSince1970: 1_792_888_200), context: context) == nil)  // 00:30Z, CEST
        #expect(autumn.ineligibility(at: Date(timeIntervalSince1970: 1_792_891_800), context: context) == nil)  // 01:30Z, CET
        #expect(autumn.ineligibility(at: Date(timeIntervalSince1970: 1_792_893_600), context: context) == "outside its hours")
    }

    @Test func theDailyCapCountsRecordedShowsByTheirLocalDate() {
        let z = "Asia/Shanghai"
        var e = ruled(zone: z) { $0.maxPerDay = 2 }
        e.noteShow(at: at("2026-05-04T10:00", z), uptime: nil)
        #expect(e.ineligibility(at: at("2026-05-04T10:30", z), context: context) == nil)
        e.noteShow(at: at("2026-05-04T11:00", z), uptime: nil)
        #expect(e.ineligibility(at: at("2026-05-04T12:00", z), context: context) == "daily cap reached")
        #expect(CampaignRules.nextEligible(e, after: at("2026-05-04T12:00", z), context: context) == at("2026-05-05T00:00", z))
        #expect(e.ineligibility(at: at("2026-05-05T00:01", z), context: context) == nil)
        // Shows of yesterday (by their own local date) do not count today, whatever UTC says.
        #expect(e.ineligibility(at: at("2026-05-04T23:59", z), context: context) == "daily cap reached")
    }

    @Test func spacingHoldsOnTheMonotonicClockWhenTheWallClockJumps() {
        var e = ruled(zone: "UTC") { $0.minInterval = 600 }
        let t = Date(timeIntervalSince1970: 1_790_000_000)
        e.noteShow(at: t, uptime: 100)
        #expect(e.ineligibility(at: t.addingTimeInterval(300), context: RuleContext(clockTrusted: true, uptime: 400, deviceTimeZone: .gmt)) == "too soon")
        #expect(CampaignRules.nextEligible(e, after: t.addingTimeInterval(300), context: RuleContext(clockTrusted: true, uptime: 400, deviceTimeZone: .gmt))
                == t.addingTimeInterval(600))
        // The wall clock jumps an hour ahead, or back: only 300 s have passed.
        #expect(e.ineligibility(at: t.addingTimeInterval(3600), context: RuleContext(clockTrusted: true, uptime: 400, deviceTimeZone: .gmt)) == "too soon")
        #expect(e.ineligibility(at: t.addingTimeInterval(-3600), context: RuleContext(clockTrusted: true, uptime: 400, deviceTimeZone: .gmt)) == "too soon")
        // A clock set back behind the last show, in a new run: still too soon.
        #expect(e.ineligibility(at: t.addingTimeInterval(-3600), context: RuleContext(clockTrusted: true, uptime: 5000, deviceTimeZone: .gmt)) == "too soon")
        #expect(e.ineligibility(at: t.addingTimeInterval(3600), context: RuleContext(clockTrusted: true, uptime: 700, deviceTimeZone: .gmt)) == nil)
        // Across a restart only the wall clock is known.
        e.lastShownUptime = nil
        #expect(e.ineligibility(at: t.addingTimeInterval(599), context: RuleContext(clockTrusted: true, uptime: 5, deviceTimeZone: .gmt)) == "too soon")
        #expect(e.ineligibility(at: t.addingTimeInterval(600), context: RuleContext(clockTrusted: true, uptime: 5, deviceTimeZone: .gmt)) == nil)
    }

    @Test func theHighestPriorityWinsThenNewestOrInTurn() {
        var low = entry("new", updated: 300, position: 1)
        var high = entry("old", updated: 100, position: 0)
        high.campaign.priority = 5
        low.campaign.priority = 0
        #expect(CampaignRules.pick(in: [high, low], at: Date(), context: context) == 0)
        high.shows = high.campaign.showLimit
        #expect(CampaignRules.pick(in: [high, low], at: Date(), context: context) == 1)

        // Rotation through the reducer: least recently shown first, the newest first of all.
        var state = makeState([entry("a", showLimit: 100, updated: 100), entry("b", showLimit: 100, updated: 300),
                               entry("c", showLimit: 100, updated: 200)], countdown: 1, attract: 1)
        state.settings.pick = .rotate
        var clock = ManualClock()
        // Each splash ends by its countdown (the detail screen), and the next comes a second later.
        let order: [Campaign.ID] = ["b", "c", "a", "b", "c", "a", "b", "c"]
        send(&state, .started(clock.now), expecting: splashStarted("b", at: clock.now.date, remaining: 99, countdown: 1, next: "/img/c.jpg"))
        var shown: [Campaign.ID] = ["b"]
        for round in 1...6 {
            let (previous, id, next) = (order[round - 1], order[round], order[round + 1])
            let ended = clock.advance(1)
            send(&state, .tick(ended), expecting: [
                .endShow(campaignID: previous, by: .timeout, at: ended.date), .emit(.skip(by: .timeout)), .emit(.detail(campaign: previous)),
            ])
            let due = clock.advance(1)
            // Its show of 100: the first round shows each once, the second twice.
            send(&state, .tick(due), expecting: [
                .recordShow(campaignID: id, at: due.date, media: .picture, picture: "/img/\(id).jpg"),
                .notePictureUsed(path: "/img/\(id).jpg"),
                .emit(.splash(campaign: id, remaining: 99 - round / 3, image: "/img/\(id).jpg", media: .picture)),
                .emit(.countdown(value: 1)), .expectFirstPicture("/img/\(next).jpg"),
            ])
            if case .splash(let splash) = state.scene, let id = splash.campaignID { shown.append(id) }
        }
        #expect(Array(shown.prefix(6)) == ["b", "c", "a", "b", "c", "a"], "\(shown)")
    }

    @Test func underNewestTheScreensGroupComesBeforeEveryScreen() {
        let lobby = RuleContext(clockTrusted: true, deviceTimeZone: .gmt, device: DeviceGroups(names: ["lobby"], deviceID: "k1"))
        var own = entry("reading-week", updated: 100, position: 0)
        own.campaign.groups = ["lobby", "entrance"]
        let everyone = entry("welcome", updated: 300, position: 1)
        // Newer, for every screen: still after the group's own of the same priority.
        #expect(CampaignRules.pick(in: [own, everyone], at: Date(), context: lobby) == 0)
        // Used up, the group's own gives way; a higher priority comes first whoever it is for.
        var usedUp = own
        usedUp.shows = usedUp.campaign.showLimit
        #expect(CampaignRules.pick(in: [usedUp, everyone], at: Date(), context: lobby) == 1)
        var urgent = everyone
        urgent.campaign.priority = 1
        #expect(CampaignRules.pick(in: [own, urgent], at: Date(), context: lobby) == 1)
        // In turn, both.
        var rotating = lobby
        rotating.pick = .rotate
        var shownOwn = own
        shownOwn.lastShownAt = Date(timeIntervalSince1970: 1000)
        #expect(CampaignRules.pick(in: [shownOwn, everyone], at: Date(), context: rotating) == 1)
    }

    @Test func aCampaignSaysWhenItRunsOutAtTheRateItIsShown() {
        let t = Date(timeIntervalSince1970: 1_800_000_000)
        // The attract loop of an empty lobby: a show every 63 s.
        let loop = (0..<10).map { t.addingTimeInterval(Double($0) * 63) }
        #expect(RunOut.estimate(remaining: 95, recent: loop) == "about 1 h 40 min at 1 show a minute")
        // Rows out of time order (a clock set back between runs): the same span.
        #expect(RunOut.estimate(remaining: 95, recent: Array(loop.dropFirst()) + [loop[0]]) == "about 1 h 40 min at 1 show a minute")
        #expect(RunOut.estimate(remaining: 10, recent: [t, t.addingTimeInterval(300)]) == "about 50 min at 12 shows an hour")
        #expect(RunOut.estimate(remaining: 30, recent: [t, t.addingTimeInterval(8 * 3600)]) == "about 10 days at 3 shows a day")
        // Nothing to go by, or nothing left.
        #expect(RunOut.estimate(remaining: 5, recent: [t]) == nil)
        #expect(RunOut.estimate(remaining: 0, recent: loop) == nil)
        // The operator view's page of a campaign shown now says the same, from its last shows (newest first).
        let shows = loop.reversed().enumerated().map { ShowRecord(row: Int64($0.offset), showID: "s\($0.offset)", campaignID: "a",
                                                                  shownAt: $0.element, endedBy: .by(.timeout), seconds: 3) }
        let tile = OperatorTile(id: "a", title: nil, remaining: 95, showLimit: 100, ineligibility: nil, isNext: true, thumbnail: nil)
        let page = OperatorCampaignPage(tile: tile, campaign: entry("a", showLimit: 100).campaign, shows: shows)
        #expect(page.rules(in: .gmt).contains("runs out about 1 h 40 min at 1 show a minute"), "\(page.rules(in: .gmt))")
    }

    @Test func aCampaignsOwnCountdownIsItsSplashs() {
        var e = entry("a")
        e.campaign.countdown = 7
        var state = makeState([e], countdown: 3)
        send(&state, .started(ManualClock().now), expecting: splashStarted(at: date(after: 0), remaining: 4, countdown: 7))
        guard case .splash(let splash) = state.scene else { Issue.record("no splash"); return }
        #expect(splash.countdown == 7)
    }

    @Test func untilTheClockIsTrustedDateBoundCampaignsWait() {
        let bound = entry("bound", updated: 100, position: 1, start: Date(timeIntervalSince1970: 0))
        let free = entry("free", updated: 50, position: 0)
        var state = makeState([bound, free])
        var clock = ManualClock()
        reduce(&state, .clockObserved(.waiting, clock.now), expecting: [
            .emit(.warning(message: "the clock is not set yet (2026-09-21T14:13:20Z): campaigns bound to dates and hours wait for it")),
        ])
        #expect(!state.clockTrusted)
        let view = Kiosk.operatorScene(state, clock.now)
        #expect(view.tiles.first { $0.id == "bound" }?.ineligibility == "waiting for the clock")
        reduce(&state, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "free", at: date(after: 0), media: .picture, picture: "/img/free.jpg"),
        ])
        guard case .splash(let first) = state.scene else { Issue.record("no splash"); return }
        #expect(first.campaignID == "free")
        // NTP has set the clock.
        reduce(&state, .clockObserved(.synchronized, clock.advance(1)), expecting: [.emit(.clockTrusted)])
        #expect(CatalogEntry.nextToShow(in: state.catalog, at: clock.now.date, context: state.ruleContext(clock.now)) == 0)
        // Without timesyncd: a clock before this build's date, or before the newest updatedAt seen, is wrong.
        #expect(!ClockTrust.isTrusted(Version.buildDate.addingTimeInterval(-1), timeSync: .absent, newestUpdatedAt: nil))
        #expect(!ClockTrust.isTrusted(Version.buildDate.addingTimeInterval(10), timeSync: .absent,
                                      newestUpdatedAt: Version.buildDate.addingTimeInterval(20)))
        #expect(ClockTrust.isTrusted(Version.buildDate.addingTimeInterval(30), timeSync: .absent,
                                     newestUpdatedAt: Version.buildDate.addingTimeInterval(20)))
    }

    @Test func theFeedCarriesEveryRuleAndNamesWhatIsWrong() throws {
        let feed = URL(string: "https://example.test/feed.json")!
        let doc = try FeedDocument.decode(Data("""
        {"timezone": "Asia/Shanghai", "campaigns": [
          {"id": "all", "picUrl": "a.jpg", "showTime": 9, "hours": ["09:00-12:00", "22:00-02:00"], "days": ["mon", "SAT"],
           "maxPerDay": 3, "minInterval": 600, "priority": 2, "countdown": 5, "linkUrl": "https://example.test/more?x=1"},
          {"id": "badhours", "picUrl": "b.jpg", "showTime": 1, "hours": ["9-12"]},
          {"id": "badday", "picUrl": "b.jpg", "showTime": 1, "days": ["someday"]},
          {"id": "badcount", "picUrl": "b.jpg", "showTime": 1, "countdown": 31},
          {"id": "badlink", "picUrl": "b.jpg", "showTime": 1, "linkUrl": "javascript:alert(1)"}
        ]}
        """.utf8), from: feed, deviceZone: .gmt)
        let c = try #require(doc.campaigns.first)
        // An invalid rule is left out of its campaign, which stays.
        #expect(doc.campaigns.map(\.id) == ["all", "badhours", "badday", "badcount", "badlink"])
        #expect(doc.campaigns[1].hours.isEmpty && doc.campaigns[2].days.isEmpty && doc.campaigns[3].countdown == nil)
        #expect(doc.campaigns[4].linkURL == nil)
        #expect(c.hours.map(\.text) == ["09:00-12:00", "22:00-02:00"] && c.days == [.mon, .sat])
        #expect(c.timeZone == "Asia/Shanghai" && c.maxPerDay == 3 && c.minInterval == 600 && c.priority == 2)
        #expect(c.countdown == 5 && c.linkURL?.absoluteString == "https://example.test/more?x=1")
        #expect(doc.warnings == [
            #"campaigns[1].hours: must be a list of daily windows like ["09:00-12:00", "22:00-02:00"], got "9-12"; ignored: shown at any hour"#,
            #"campaigns[2].days: must be a list of mon, tue, wed, thu, fri, sat or sun, got "someday"; ignored: shown on every day"#,
            "campaigns[3].countdown: must be a whole number from 1 to 30, got 31; ignored",
            #"campaigns[4].linkUrl: must be an http or https URL of at most 1024 characters, got "javascript:alert(1)"; ignored: no QR code"#,
        ])
        let zone = try FeedDocument.decode(Data(#"{"timezone": "Mars/Olympus", "campaigns": [{"picUrl": "a.jpg", "showTime": 1}]}"#.utf8),
                                           from: feed, deviceZone: .gmt)
        #expect(zone.warnings.first?.hasPrefix(#"timezone: "Mars/Olympus" is not a zone this device knows"#) == true
                && zone.campaigns.first?.timeZone == nil)
    }

    /// `linkLabel` is the QR code's caption: its white space made single, cut at 24 characters
    /// with a warning, and left out with a warning where there is no link to label.
    @Test func aLinkLabelCaptionsTheLinkAndOnlyALink() throws {
        let doc = try FeedDocument.decode(Data(#"""
        {"campaigns": [
          {"id": "a", "picUrl": "a.jpg", "showTime": 5, "linkUrl": "https://shop.example/seat", "linkLabel": " 扫码预约\r\n座位 "},
          {"id": "b", "picUrl": "a.jpg", "showTime": 5, "linkUrl": "https://shop.example/seat", "linkLabel": "一二三四五六七八九十一二三四五六七八九十一二三四五六"},
          {"id": "c", "picUrl": "a.jpg", "showTime": 5, "linkLabel": "扫码预约"},
          {"id": "d", "picUrl": "a.jpg", "showTime": 5, "linkUrl": "https://shop.example/seat", "linklabel": "扫码"}
        ]}
        """#.utf8), from: URL(string: "https://example.test/feed.json")!, deviceZone: .gmt)
        #expect(doc.campaigns.map(\.linkLabel) == ["扫码预约 座位", "一二三四五六七八九十一二三四五六七八九十一二三…", nil, nil])
        #expect(doc.warnings.count == 3, "\(doc.warnings)")
        #expect(doc.warnings.contains { $0.hasPrefix("campaigns[1].linkLabel:") && $0.contains("24") }, "\(doc.warnings)")
        #expect(doc.warnings.contains("campaigns[2].linkLabel: labels the linkUrl's QR code, and this campaign has no linkUrl; ignored"))
        #expect(doc.warnings.contains("campaigns[3].linklabel: unknown field; did you mean linkLabel?"), "\(doc.warnings)")
    }

    /// An end that is not after the start is "never", not "not started": no waiting brings
    /// it. Its warning explains days written alone only where that is the mistake.
    @Test func anEndBeforeTheStartIsNever() throws {
        let e = ruled(zone: "UTC") {
            $0.startAt = self.at("2026-12-20T00:00", "UTC")
            $0.endAt = self.at("2026-12-10T00:00", "UTC")
        }
        let before = at("2026-12-01T00:00", "UTC")
        #expect(CampaignRules.reason(of: e, at: before, context: context) == .emptyWindow)
        #expect(e.ineligibility(at: before, context: context) == "never: its endAt is not after its startAt")
        #expect(CampaignRules.nextEligible(e, after: before, context: context) == nil)
        let feed = URL(string: "https://example.test/feed.json")!
        let swapped = try FeedDocument.decode(Data(#"[{"picUrl": "a.jpg", "showTime": 1, "startAt": "2026-12-20", "endAt": "2026-12-10"}]"#.utf8),
                                              from: feed, deviceZone: .gmt)
        #expect(swapped.warnings == ["[0].endAt: is not after startAt, so the campaign is never shown"])
        let sameDay = try FeedDocument.decode(Data(#"[{"picUrl": "a.jpg", "showTime": 1, "startAt": "2026-12-10", "endAt": "2026-12-10"}]"#.utf8),
                                              from: feed, deviceZone: .gmt)
        #expect(sameDay.warnings.first?.hasSuffix(#"(a day alone is its midnight: "2026-12-10" ends as that day begins; name the day after)"#) == true)
    }

    /// Text this device's fonts cannot draw is a warning by field, naming each character
    /// once with its code point; spaces, joiners and variation selectors are not characters
    /// to draw. Without the fact, no warning.
    @Test func textNoFontCanDrawIsAWarning() throws {
        let feed = URL(string: "https://example.test/feed.json")!
        let json = #"{"message": "Hi \uD83D\uDE00", "campaigns": [{"picUrl": "a.jpg", "showTime": 1, "title": "Sale 🎉\u200D\uFE0F 🎉 ☕ 🧧 🎊", "detail": "春茶"}]}"#
        // Here no emoji can be drawn, and the rest can.
        let canDraw = { (s: Unicode.Scalar) in s.properties.isEmojiPresentation == false }
        let doc = try FeedDocument.decode(Data(json.utf8), from: feed, deviceZone: .gmt, canDraw: canDraw)
        #expect(doc.warnings == [
            #"campaigns[0].title: "🎉" (U+1F389), "☕" (U+2615), "🧧" (U+1F9E7) and 1 more cannot be drawn by any font "#
                + #"installed on this device and would show as empty boxes; remove them, or install a font that has them "#
                + "(`fc-list :charset=1f389` shows when one is)",
            #"message: "😀" (U+1F600) cannot be drawn by any font installed on this device and would show as an empty box; "#
                + "remove it, or install a font that has it (`fc-list :charset=1f600` shows when one is)",
        ])
        #expect(try FeedDocument.decode(Data(json.utf8), from: feed, deviceZone: .gmt).warnings.isEmpty)
    }

    /// A zone is named the way an operator writes it: an IANA name is taken as it is, an
    /// offset is taken with a warning (no daylight saving), an abbreviation is ambiguous and
    /// left out, a name in the wrong case is pointed at the right one, and a zone written
    /// into a campaign is said to belong beside "campaigns".
    @Test func zonesAsOperatorsWriteThem() throws {
        let feed = URL(string: "https://example.test/feed.json")!
        func read(_ zone: String) throws -> (zone: String?, warnings: [String]) {
            let doc = try FeedDocument.decode(Data(#"{"timezone": "\#(zone)", "campaigns": [{"picUrl": "a.jpg", "showTime": 1}]}"#.utf8),
                                              from: feed, deviceZone: .gmt)
            return (doc.campaigns.first?.timeZone, doc.warnings)
        }
        #expect(try read("Asia/Shanghai") == ("Asia/Shanghai", []))
        #expect(try read("UTC") == ("UTC", []))
        let offset = try read("UTC+8")
        #expect(offset.zone.flatMap(TimeZone.init(identifier:))?.secondsFromGMT() == 8 * 3600)
        #expect(offset.warnings == [#"timezone: "UTC+8" is a fixed offset, which never changes for daylight saving; "#
                                    + #"it is used, but an IANA zone like "Asia/Shanghai" or "Europe/Berlin" names the place and follows its clocks"#])
        let abbreviation = try read("CST")
        #expect(abbreviation.zone == nil)
        #expect(abbreviation.warnings.first?.hasPrefix(#"timezone: "CST" is an abbreviation, and abbreviations are ambiguous"#) == true)
        #expect(try read("asia/shanghai") == (nil, [#"timezone: "asia/shanghai" is not a zone name; is "Asia/Shanghai" meant? The device's zone is used"#]))
        // The zone database's old names are names.
        #expect(try read("PRC") == ("PRC", []))
        let inCampaign = try FeedDocument.decode(Data(#"{"campaigns": [{"picUrl": "a.jpg", "showTime": 1, "timezone": "Asia/Tokyo"}]}"#.utf8),
                                                 from: feed, deviceZone: .gmt)
        #expect(inCampaign.campaigns.first?.timeZone == nil)
        #expect(inCampaign.warnings == [#"campaigns[0].timezone: the zone is set once for the whole feed, as "timezone" beside "#
                                        + #""campaigns", not per campaign; ignored here"#])
    }
}

/// The rules decide on `Ineligibility`, never on its words.
@Suite struct IneligibilityTests {
    @Test func theOperatorViewsGroupsComeFromTheKindNotTheWords() {
        #expect(OperatorOrder(reason: nil) == .eligible)
        #expect(OperatorOrder(reason: .usedUp) == .finished && OperatorOrder(reason: .ended) == .finished)
        #expect(OperatorOrder(reason: .imageRefused("not an image")) == .problem)
        #expect(OperatorOrder(reason: .imageMissing(nil)) == .problem)
        for waiting: Ineligibility in [.waitingForClock, .notStarted, .notToday, .outsideHours, .dailyCapReached, .tooSoon] {
            #expect(OperatorOrder(reason: waiting) == .waiting, "\(waiting)")
        }
        #expect(Ineligibility.imageMissing("cache full").message == "image missing: cache full")
        #expect(Ineligibility.imageMissing(nil).message == "image missing")
        // Screens are told apart by kind too; the names are only what events and files say.
        #expect(Scene.starting.kind == .detail && Scene.Kind.operator.rawValue == "operator")
    }
}

/// The metrics count campaigns by the one definition of eligible: one outside its hours is
/// waiting, not eligible.
@Suite struct MetricsStateTests {
    @Test func aCampaignOutsideItsHoursIsWaitingInTheMetrics() {
        var campaign = Campaign(id: "a", picURL: URL(string: "https://x.test/a.jpg")!, showLimit: 5)
        campaign.hours = [DailyWindow("09:00-10:00")!]
        let entry = CatalogEntry(campaign: campaign, shows: 0, picture: .cached(path: "/cache/a"))
        let context = RuleContext(clockTrusted: true, deviceTimeZone: .gmt)
        let noon = Date(timeIntervalSince1970: Double(1_790_000_000 - 1_790_000_000 % 86_400 + 12 * 3600))
        #expect(KioskMetrics.CampaignState(entry, at: noon, context: context) == .waiting)
        #expect(KioskMetrics.CampaignState(entry, at: noon.addingTimeInterval(-2.5 * 3600), context: context) == .eligible)
    }
}
