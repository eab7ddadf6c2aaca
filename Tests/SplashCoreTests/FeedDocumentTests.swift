import Foundation
import Testing
@testable import SplashCore

@Suite struct FeedDocumentTests {
    /// Thousands of broken entries make a message that names the first few and counts the rest.
    @Test func aFeedOfManyBrokenEntriesNamesAFewAndCountsTheRest() {
        let entries = (0..<10_000).map { #"{"id": "c\#($0)"}"# }.joined(separator: ",")
        #expect(throws: FeedError.self) { try decode("[\(entries)]") }
        do {
            _ = try decode("[\(entries)]")
        } catch {
            let text = error.localizedDescription
            #expect(text.count < 2_000, "\(text.count) characters")
            #expect(text.contains("c0") && text.contains("c4") && !text.contains("c5\""), "\(text.prefix(600))")
            #expect(text.hasSuffix("and 9995 more (`splashboard feed check FEED` names every one)"), "\(text.suffix(200))")
        }
    }

    let feedURL = URL(string: "https://cdn.example.test/kiosk/feed.json")!

    func decode(_ json: String) throws -> FeedDocument {
        try FeedDocument.decode(Data(json.utf8), from: feedURL, deviceZone: .gmt)
    }

    @Test func aVideoURLIsResolvedAsThePictureIsAndABadOneLeftOut() throws {
        let doc = try decode(#"""
        [{"id": "a", "picUrl": "a.jpg", "videoUrl": "clips/a.mp4", "showTime": 1},
         {"id": "b", "picUrl": "b.jpg", "videoUrl": "file:///etc/passwd", "showTime": 1},
         {"id": "c", "picUrl": "c.jpg", "videoUrl": "http://cdn.example.test/c.mp4", "showTime": 1},
         {"id": "d", "picUrl": "d.jpg", "videoUrl": 7, "showTime": 1},
         {"id": "e", "picUrl": "e.jpg", "videoUrl": "ftp://cdn.example.test/e.mp4", "showTime": 1}]
        """#)
        #expect(doc.campaigns.map(\.videoURL?.absoluteString) == ["https://cdn.example.test/kiosk/clips/a.mp4", nil, nil, nil, nil])
        // Each campaign stays, with its picture, and the warning says why its clip was left out.
        #expect(doc.campaigns.count == 5)
        let said = doc.warnings.joined(separator: "\n")
        for why in ["local file, which only a local feed may name", "plain http in an https feed", "must be a URL string, got 7",
                    "must be an http, https or file URL"] {
            #expect(said.contains(why) && said.contains("the picUrl is shown instead"), "\(why) not in \(said)")
        }
    }

    @Test func aPortraitPictureIsResolvedAsThePictureIsAndABadOneLeftOut() throws {
        let doc = try decode(#"""
        [{"id": "a", "picUrl": "a.jpg", "picUrlPortrait": "tall/a.jpg", "showTime": 1},
         {"id": "b", "picUrl": "b.jpg", "picUrlPortrait": 3, "showTime": 1},
         {"id": "c", "picUrl": "c.jpg", "picUrlPortrait": "http://cdn.example.test/c.jpg", "showTime": 1}]
        """#)
        #expect(doc.campaigns.map(\.portraitURL?.absoluteString) == ["https://cdn.example.test/kiosk/tall/a.jpg", nil, nil])
        let said = doc.warnings.filter { $0.contains("picUrlPortrait") }
        #expect(said.count == 2 && said.allSatisfy { $0.contains("the picUrl is shown instead") }, "\(said)")
    }

    @Test func groupsTargetCampaignsAndSchedulesAndWrongOnesSaySo() throws {
        let doc = try decode(#"""
        {"groups": {"cafe": {"screen": {"hours": ["08:00-09:00"]}}, "lobby": {"screen": {"hours": "10:00-20:00"}},
                    "hall": {"screen": {"screen-hours": "10:00-20:00"}},
                    "bad name": {"screen": {}}, "terrace": 3},
         "campaigns": [
          {"id": "a", "picUrl": "a.jpg", "showTime": 1, "groups": ["lobby", "cafe", "lobby"]},
          {"id": "b", "picUrl": "b.jpg", "showTime": 1, "groups": []},
          {"id": "c", "picUrl": "c.jpg", "showTime": 1, "groups": "lobby"},
          {"id": "d", "picUrl": "d.jpg", "showTime": 1}]}
        """#)
        // A list that cannot be read skips its campaign: it is not shown on screens it is not for.
        #expect(doc.campaigns.map(\.id) == ["a", "b", "d"])
        #expect(doc.campaigns.map(\.groups) == [["lobby", "cafe"], [], nil])
        let said = doc.warnings.joined(separator: "\n")
        for words in ["groups: is empty: the campaign is for no screen", "groups: must be a list of group names",
                      "\"bad name\" is not a group name", "groups.terrace: must be an object with a \"screen\" schedule",
                      "groups.hall.screen.screen-hours: unknown field; in a feed it is \"hours\" (screen-hours is the config file's name); ignored"] {
            #expect(said.contains(words), "\(words) not in \(said)")
        }
        // A device's schedule: its first group with one, else the feed's; two that differ say which applies.
        #expect(doc.groupScreens.map(\.group) == ["cafe", "hall", "lobby"])
        let lobby = doc.screen(for: DeviceGroups(names: ["lobby"], deviceID: "k1"))
        #expect(lobby.screen?.hours == "10:00-20:00" && lobby.warning == nil)
        let both = doc.screen(for: DeviceGroups(names: ["cafe", "lobby"], deviceID: "k2"))
        #expect(both.screen?.hours == "08:00-09:00" && both.warning?.contains("cafe's applies") == true, "\(String(describing: both.warning))")
        #expect(doc.screen(for: DeviceGroups(names: ["entrance"], deviceID: "k3")).screen == nil)
        // Membership: the names and the device's own id; no groups on a campaign: every device.
        let device = DeviceGroups(names: ["lobby"], deviceID: "k1")
        #expect(device.includes(["k1"]) && device.includes(["x", "lobby"]) && device.includes(nil) && !device.includes(["cafe"]) && !device.includes([]))
        #expect(DeviceGroups.parse(" lobby , cafe,lobby") == .success(["lobby", "cafe"]) && DeviceGroups.parse("") == .success([]))
        #expect(DeviceGroups.parse("lobby,,cafe") == .failure(DeviceGroups.NameError(name: "")))
        // A group that differs only in case is not this device's, and the reason says why.
        #expect(!device.includes(["Lobby"]))
        #expect(Ineligibility.notForThisDevice(groups: ["Lobby"], device: device.memberships).message
                == "for the groups Lobby; this screen is in: lobby, k1; group names are matched exactly, case included: \"Lobby\" is not \"lobby\"")
    }

    @Test func aFocalPointIsKeptAndAWrongOneLeftOutWithItsReason() throws {
        let doc = try decode(#"""
        [{"id": "a", "picUrl": "a.jpg", "showTime": 1, "focus": {"x": 0.5, "y": 0.2}},
         {"id": "b", "picUrl": "b.jpg", "showTime": 1, "focus": {"x": 1.5, "y": 0.2}},
         {"id": "c", "picUrl": "c.jpg", "showTime": 1, "focus": "top"},
         {"id": "d", "picUrl": "d.jpg", "showTime": 1},
         {"id": "e", "picUrl": "e.jpg", "showTime": 1, "focus": {"x": 1, "y": 0}}]
        """#)
        #expect(doc.campaigns.map(\.focus) == [FocusPoint(x: 0.5, y: 0.2), nil, nil, nil, FocusPoint(x: 1, y: 0)])
        #expect(doc.campaigns.count == 5)
        let said = doc.warnings.filter { $0.contains("focus") }
        #expect(said.count == 2 && said.allSatisfy { $0.contains("fractions from 0 to 1") && $0.contains("keeps the picture's centre") }, "\(said)")
    }

    @Test func anAddressWithoutItsSchemeThatStartsWithAServersNameSaysSo() throws {
        let doc = try decode(#"""
        [{"id": "a", "picUrl": "img.example.com/a.jpg", "videoUrl": "www.example.com/a.mp4", "showTime": 1},
         {"id": "b", "picUrl": "images/b.jpg", "videoUrl": "clips.v2/b.mp4", "showTime": 1},
         {"id": "c", "picUrl": "c.jpg", "videoUrl": "clips/c.mp4", "showTime": 1},
         {"id": "d", "picUrl": "photos.2026/d.jpg", "showTime": 1}]
        """#)
        // Read as paths beside the feed, as written; the warning says what to write instead.
        #expect(doc.campaigns.map(\.picURL.absoluteString).first == "https://cdn.example.test/kiosk/img.example.com/a.jpg")
        #expect(doc.campaigns.first?.videoURL?.absoluteString == "https://cdn.example.test/kiosk/www.example.com/a.mp4")
        let said = doc.warnings.joined(separator: "\n")
        #expect(said.contains(#"[0].picUrl: "img.example.com/a.jpg" has no scheme, so it is read as a path beside the feed "#
                              + #"(https://cdn.example.test/kiosk/img.example.com/a.jpg); if img.example.com is a server, "#
                              + #"write "https://img.example.com/a.jpg""#), "\(said)")
        #expect(said.contains(#"[0].videoUrl: "www.example.com/a.mp4" has no scheme"#), "\(said)")
        // Folders with dots in their names, plain relative paths: nothing said.
        #expect(doc.warnings.count == 2, "\(said)")
    }

    @Test func theSeedShapeIsOneCampaign() throws {
        let doc = try decode(#"{"picUrl": "https://img.example.test/a.jpg?w=904&fmt=jpeg", "showTime": 3}"#)
        #expect(doc.campaigns.count == 1)
        #expect(doc.campaigns[0].id == "https://img.example.test/a.jpg?w=904&fmt=jpeg")
        #expect(doc.campaigns[0].showLimit == 3)
    }

    @Test func anArrayAndTheCampaignsObject() throws {
        let list = try decode(#"[{"id":"a","picUrl":"a.jpg","showTime":1},{"id":"b","picUrl":"/b.png","showTime":0}]"#)
        #expect(list.campaigns.map(\.id) == ["a", "b"])
        #expect(list.campaigns[0].picURL.absoluteString == "https://cdn.example.test/kiosk/a.jpg")
        #expect(list.campaigns[1].picURL.absoluteString == "https://cdn.example.test/b.png")
        #expect(list.campaigns.map(\.position) == [0, 1])

        let object = try decode(#"{"message":"Hi","campaigns":[{"picUrl":"a.jpg","showTime":2,"title":"T","extra":{"x":1}}]}"#)
        #expect(object.message == "Hi")
        #expect(object.campaigns[0].title == "T")
    }

    @Test func datesWithAnyOffset() throws {
        let doc = try decode("""
        [{"picUrl":"a.jpg","showTime":1,"startAt":"2026-01-01T08:00:00+08:00","endAt":"2026-01-02T00:00:00Z",
          "updatedAt":"2026-01-01T00:00:00.250-05:00"}]
        """)
        let c = doc.campaigns[0]
        #expect(c.startAt == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(c.endAt == Date(timeIntervalSince1970: 1_767_312_000))
        #expect(c.updatedAt == Date(timeIntervalSince1970: 1_767_243_600.25))
    }

    @Test func badEntriesAreSkippedWithAWarningNamingThem() throws {
        let doc = try decode("""
        [{"id":"good","picUrl":"a.jpg","showTime":1},
         {"id":"no-pic","showTime":1},
         {"id":"neg","picUrl":"b.jpg","showTime":-1},
         {"id":"frac","picUrl":"b.jpg","showTime":1.5},
         {"id":"bool","picUrl":"b.jpg","showTime":true},
         {"id":"scheme","picUrl":"ftp://x/b.jpg","showTime":1},
         {"id":"when","picUrl":"b.jpg","showTime":1,"startAt":"tomorrow"},
         {"id":"good","picUrl":"c.jpg","showTime":1},
         "text",
         null]
        """)
        // An invalid required field skips its entry; an invalid optional one (startAt) only itself.
        #expect(doc.campaigns.map(\.id) == ["good", "when"])
        #expect(doc.campaigns[1].startAt == nil)
        #expect(doc.warnings.count == 9)
        #expect(doc.warnings[7] == "[8]: is a string, not a campaign object; entry skipped")
        #expect(doc.warnings[8] == "[9]: is null, not a campaign object; entry skipped")
        #expect(doc.warnings[0] == "[1].picUrl: is missing; campaign \"no-pic\" skipped")
        #expect(doc.warnings[1] == "[2].showTime: must be a whole number ≥ 0, got -1; campaign \"neg\" skipped")
        #expect(doc.warnings[3] == "[4].showTime: must be a whole number ≥ 0, got true; campaign \"bool\" skipped")
        #expect(doc.warnings[5].hasPrefix("[6].startAt: \"tomorrow\" is not an ISO 8601 date; expected"))
        #expect(doc.warnings[5].hasSuffix("; ignored: the campaign is shown without a start"))
        #expect(doc.warnings[6] == "[7].id: repeats \"good\" of an earlier entry; campaign \"good\" skipped")
    }

    @Test func fieldsOfTheWrongTypeAreNamedInTheWarnings() throws {
        let doc = try decode("""
        [{"id": 7, "picUrl": "a.jpg", "showTime": 1},
         {"id": "s", "picUrl": "a.jpg", "showTime": "3"},
         {"id": "t", "picUrl": "a.jpg", "showTime": 1, "title": 5},
         {"id": "u", "picUrl": ["a.jpg"], "showTime": 1},
         {"id": "v", "picUrl": "a.jpg", "showTime": 1, "endAt": false},
         {"id": {"x": 1}, "picUrl": "a.jpg", "showTime": 1}]
        """)
        // Only the required fields skip their entry; the others are left out of it.
        #expect(doc.campaigns.map(\.id) == ["7", "t", "v", "https://cdn.example.test/kiosk/a.jpg"])
        #expect(doc.campaigns[1].title == nil && doc.campaigns[2].endAt == nil)
        #expect(doc.warnings.count == 5)
        #expect(doc.warnings[0] == "[1].showTime: must be a whole number ≥ 0, got \"3\"; campaign \"s\" skipped")
        #expect(doc.warnings[1] == "[2].title: must be a string, got 5; ignored")
        #expect(doc.warnings[2] == "[3].picUrl: must be a URL string, got a list; campaign \"u\" skipped")
        #expect(doc.warnings[3].hasPrefix("[4].endAt: must be a date string") && doc.warnings[3].contains("got false; ignored"))
        #expect(doc.warnings[4] == "[5].id: must be a non-empty string, got an object; the picUrl is its id instead")
    }

    @Test(arguments: [[0x5B, 0x22, 0xFF, 0xFE, 0x22, 0x5D], Array("[{\"id\":\"a\u{0}b\",\"picUrl\":\"a.jpg\",\"showTime\":1}]".utf8)])
    func textThatIsNotJSONIsRefusedWhole(bytes: [UInt8]) {
        #expect(throws: FeedError.self) { try FeedDocument.decode(Data(bytes), from: feedURL, deviceZone: .gmt) }
        do {
            _ = try FeedDocument.decode(Data(bytes), from: feedURL, deviceZone: .gmt)
        } catch {
            #expect(error.localizedDescription.contains("not valid JSON"), "\(error.localizedDescription)")
        }
    }

    @Test func anHTTPSFeedNamesNoPlainHTTPPictures() throws {
        let doc = try decode(#"[{"id":"clear","picUrl":"http://img.example.test/a.jpg","showTime":1},"#
            + #"{"id":"sealed","picUrl":"https://img.example.test/b.jpg","showTime":1}]"#)
        #expect(doc.campaigns.map(\.id) == ["sealed"])
        #expect(doc.warnings == [#"[0].picUrl: is plain http in an https feed (use an https picture URL); campaign "clear" skipped"#])
        // A plain http feed may: it has nothing to protect.
        let plain = try FeedDocument.decode(Data(#"{"picUrl":"http://img.example.test/a.jpg","showTime":1}"#.utf8),
                                            from: URL(string: "http://cdn.example.test/feed.json")!, deviceZone: .gmt)
        #expect(plain.campaigns.count == 1)
    }

    @Test func anEmptyListRetiresEverythingAndSaysSo() throws {
        for json in ["[]", #"{"campaigns":[]}"#] {
            let doc = try decode(json)
            #expect(doc.campaigns.isEmpty)
            #expect(doc.warnings == ["the feed lists no campaigns: every campaign is retired, and the screen shows its fallback "
                                     + "(the default picture; the detail screen with fallback = skip) until a feed lists one again"])
        }
    }

    @Test(arguments: ["", "not json", "{\"campaigns\": 3}", "42", "\"x\"", "null",
                      "[{\"showTime\":1}]", "{\"picUrl\":5,\"showTime\":1}"])
    func invalidDocumentsAreErrors(json: String) {
        #expect(throws: FeedError.self) { try decode(json) }
    }
}

@Suite struct ISO8601Tests {
    @Test func datesAgreeWithFoundation() throws {
        let reference = ISO8601DateFormatter()
        for text in ["2026-01-01T08:00:00+08:00", "2026-02-28T23:59:59Z", "2024-02-29T12:00:00-05:30",
                     "1999-12-31T23:59:59+14:00", "2100-03-01T00:00:00Z", "1970-01-01T00:00:00Z", "2026-06-15 09:30:00Z"] {
            let expected = reference.date(from: text.replacingOccurrences(of: " ", with: "T"))
            #expect(ISO8601.date(from: text) == expected, "\(text)")
        }
        #expect(ISO8601.date(from: "2026-01-01T00:00:00.250-05:00") == Date(timeIntervalSince1970: 1_767_243_600.25))
    }

    @Test(arguments: ["", "2026-01-01", "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-01-01T24:00:00Z",
                      "2026-01-01T00:00:00", "2026-01-01T00:00:00+0800", "2026-01-01T00:00:00Zjunk", "tomorrow",
                      "2026-01-01T00:00:00.Z", "２０２６-01-01T00:00:00Z"])
    func badDatesAreRefused(text: String) {
        #expect(ISO8601.date(from: text) == nil)
    }

    @Test func writingRoundTrips() {
        for seconds in [0.0, 1_767_225_600, 951_782_400, 4_102_444_800] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(ISO8601.date(from: ISO8601.string(from: date)) == date)
        }
        #expect(ISO8601.string(from: Date(timeIntervalSince1970: 1_767_225_600)) == "2026-01-01T00:00:00Z")
    }
}

@Suite struct FeedMessageTests {
    let feedURL = URL(string: "https://cdn.example.test/kiosk/feed.json")!

    @Test func aSyntaxErrorSaysItsLineAndColumn() {
        let json = "{\n  \"campaigns\": [\n    {\"picUrl\": \"春.jpg\", \"showTime\": tru}\n  ]\n}"
        var message = ""
        do {
            _ = try FeedDocument.decode(Data(json.utf8), from: feedURL, deviceZone: .gmt)
        } catch {
            message = error.localizedDescription
        }
        #expect(message.hasPrefix("the feed is not valid JSON: line 3, column "), "\(message)")
        #expect(message.contains("tru"))
    }

    @Test func anHTMLPageIsSaidToBeOne() {
        let page = "\n<!DOCTYPE html>\n<html><head><title>Sign in · Example CDN</title></head><body></body></html>"
        do {
            _ = try FeedDocument.decode(Data(page.utf8), from: feedURL, deviceZone: .gmt)
            Issue.record("an HTML page was read as a feed")
        } catch {
            #expect(error.localizedDescription
                == #"the feed URL answered an HTML page titled "Sign in · Example CDN", not JSON: check the address, or whether the server needs a login"#)
        }
    }

    @Test func aDayAloneIsMidnightInTheFeedsZone() throws {
        let doc = try FeedDocument.decode(Data(#"""
            {"timezone": "Asia/Shanghai", "campaigns": [{"picUrl": "a.jpg", "showTime": 1, "startAt": "2026-12-01", "endAt": "2026-12-08"}]}
            """#.utf8), from: feedURL, deviceZone: .gmt)
        #expect(doc.campaigns[0].startAt == ISO8601.date(from: "2026-12-01T00:00:00+08:00"))
        #expect(doc.campaigns[0].endAt == ISO8601.date(from: "2026-12-08T00:00:00+08:00"))
        #expect(doc.warnings.isEmpty)
        // Without a timezone, the device's.
        let device = try FeedDocument.decode(Data(#"[{"picUrl": "a.jpg", "showTime": 1, "startAt": "2026-12-01"}]"#.utf8),
                                             from: feedURL, deviceZone: Zone(identifier: "Europe/Berlin")!)
        #expect(device.campaigns[0].startAt == ISO8601.date(from: "2026-12-01T00:00:00+01:00"))
    }

    @Test func aWindowThatCanNeverOpenIsAWarning() throws {
        let doc = try FeedDocument.decode(Data(#"""
            [{"id": "a", "picUrl": "a.jpg", "showTime": 1, "startAt": "2026-12-24", "endAt": "2026-12-24"}]
            """#.utf8), from: feedURL, deviceZone: .gmt)
        #expect(doc.warnings == [#"[0].endAt: is not after startAt, so the campaign is never shown (a day alone is its midnight: "2026-12-24" ends as that day begins; name the day after)"#])
    }

    @Test func aBadDateQuotesItselfAndTheAcceptedForms() throws {
        let doc = try FeedDocument.decode(Data(#"""
            {"campaigns": [{"id": "a", "picUrl": "a.jpg", "showTime": 1, "startAt": "2026-13-01T00:00:00Z", "endAt": "2026-12-01T09:00:00"}]}
            """#.utf8), from: feedURL, deviceZone: .gmt)
        #expect(doc.campaigns.count == 1)
        #expect(doc.warnings[0].hasPrefix(#"campaigns[0].startAt: "2026-13-01T00:00:00Z" is not an ISO 8601 date (there is no month 13); expected "2026-01-31T09:00:00+08:00""#))
        #expect(doc.warnings[1].contains("(the time has no offset: add Z for UTC or one like +08:00)"))
    }

    @Test func misspeltFieldsAreWarningsAndOthersAreIgnored() throws {
        let doc = try FeedDocument.decode(Data(#"""
            {"messge": "hi", "campaigns": [{"id": "a", "picUrl": "a.jpg", "showTime": 1, "linkURL": "https://x.test/", "showtime": 3,
             "x-internal": true}]}
            """#.utf8), from: feedURL, deviceZone: .gmt)
        #expect(doc.warnings == ["messge: unknown field; did you mean message?",
                                 "campaigns[0].linkURL: unknown field; did you mean linkUrl?",
                                 "campaigns[0].showtime: unknown field; did you mean showTime? (showTime is set too: this one is ignored)"])
        let missing = try? FeedDocument.decode(Data(#"[{"picURL": "a.jpg", "showTime": 1}, {"picUrl": "b.jpg", "showTime": 1}]"#.utf8),
                                               from: feedURL, deviceZone: .gmt)
        #expect(missing?.warnings == ["[0].picUrl: is missing (is picURL meant?); entry skipped"])
    }

    @Test func aLineBreakInATrackingURLIsRefused() throws {
        let doc = try FeedDocument.decode(Data(#"""
            [{"id": "a", "picUrl": "a.jpg", "showTime": 1, "impressionUrls": ["https://t.test/x\nfile:///etc/hostname", "https://t.test/ok"]}]
            """#.utf8), from: feedURL, deviceZone: .gmt)
        #expect(doc.campaigns[0].impressionURLs == ["https://t.test/ok"])
        #expect(doc.warnings.first?.hasPrefix("[0].impressionUrls[0]: holds a control character such as a line break") == true)
    }

    /// Every string that is stored or repeated with each show has a cap: an id beyond 200
    /// characters or a picture URL beyond 2,048 skips its entry; a tracking URL that would
    /// pass 2,048 once this campaign's id is filled in is left out.
    @Test func idsAndURLsHaveCapsAndEntriesBeyondThemAreSkipped() throws {
        let huge = String(repeating: "i", count: 900_000)
        let longest = String(repeating: "é", count: FeedDocument.maxID)
        let longPicture = "https://cdn.example.test/" + String(repeating: "p", count: 500) + ".jpg"
        let tracker = "https://t.test/imp?c={campaign}&pad=" + String(repeating: "x", count: 1_300)
        let json = """
        [{"id": "\(huge)", "picUrl": "a.jpg", "showTime": 1},
         {"picUrl": "https://cdn.example.test/\(String(repeating: "q", count: 3_000)).jpg", "showTime": 1},
         {"picUrl": "\(longPicture)", "showTime": 1},
         {"id": "\(longest)", "picUrl": "b.jpg", "showTime": 1, "impressionUrls": ["\(tracker)", "https://t.test/ok?c={campaign}"]},
         {"id": "short", "picUrl": "c.jpg", "showTime": 1, "impressionUrls": ["\(tracker)"]}]
        """
        let doc = try FeedDocument.decode(Data(json.utf8), from: feedURL, deviceZone: .gmt)
        #expect(doc.campaigns.map(\.id).count == 3)
        #expect(doc.warnings.contains { $0.hasPrefix("[0].id: is 900000 characters long; an id may have 200 at the most; campaign \"iii")
            && $0.hasSuffix("skipped") && $0.count < 300 }, "\(doc.warnings.map { ($0.count, $0.suffix(30)) })")
        #expect(doc.warnings.contains { $0.hasPrefix("[1].picUrl: is 3") && $0.contains("a URL may have 2048 at the most") })
        // A long picture URL without an id gets a short stand-in id.
        let stand = try #require(doc.campaigns.first { $0.picURL.absoluteString == longPicture })
        #expect(stand.id.rawValue.hasPrefix("picUrl-") && stand.id.rawValue.count <= FeedDocument.maxID)
        #expect(doc.campaigns.allSatisfy { $0.id.rawValue.count <= FeedDocument.maxID })
        // A 200-character id, each character six once percent-encoded: the tracker passes 2,048.
        let capped = try #require(doc.campaigns.first { $0.id.rawValue == longest })
        #expect(capped.impressionURLs == ["https://t.test/ok?c={campaign}"])
        #expect(doc.warnings.contains { $0.contains("impressionUrls[0]: is ") && $0.contains("once its macros are filled in") })
        #expect(doc.campaigns.first { $0.id == "short" }?.impressionURLs == [tracker])
    }
}

@Suite struct FeedSyntaxTests {
    let feedURL = URL(string: "https://cdn.example.test/kiosk/feed.json")!

    @Test func aTrailingCommaIsAWarningOtherToolsWouldRefuse() throws {
        let doc = try FeedDocument.decode(Data("[\n  {\"picUrl\": \"a.jpg\", \"showTime\": 3, \"title\": \"a, }\",},\n]".utf8),
                                          from: feedURL, deviceZone: .gmt)
        #expect(doc.campaigns.count == 1)
        #expect(doc.warnings == ["line 2, column 53: a comma before }, which JSON does not allow: other tools refuse this feed; remove the comma",
                                 "line 2, column 55: a comma before ], which JSON does not allow: other tools refuse this feed; remove the comma"])
    }

    /// The two mistakes people make most in a feed written by hand, said for what they are
    /// and where: a comment, and a comma missing at the end of a line (said on that line).
    @Test func aCommentAndAMissingCommaAreNamedWhereTheyAre() {
        func message(_ json: String) -> String {
            do {
                _ = try FeedDocument.decode(Data(json.utf8), from: feedURL, deviceZone: .gmt)
                return "read"
            } catch {
                return error.localizedDescription
            }
        }
        #expect(message("{\"campaigns\": [\n  {\"picUrl\": \"a.jpg\", \"showTime\": 5}\n  {\"picUrl\": \"b.jpg\", \"showTime\": 5}\n]}")
                == "the feed is not valid JSON: line 2, column 37: a comma is missing here, between two values "
                + "(the next value starts on line 3)")
        #expect(message("{\"message\": \"hi\" \"campaigns\": []}")
                == "the feed is not valid JSON: line 1, column 17: a comma is missing here, between two values")
        #expect(message("[{\"picUrl\": \"a.jpg\", \"showTime\": 5 \"title\": \"x\"}]")
                == "the feed is not valid JSON: line 1, column 35: a comma is missing here, between two values")
        #expect(message("{\"campaigns\": [ // spring\n  {\"picUrl\": \"http://x.test/a.jpg\", \"showTime\": 5}\n]}")
                == "the feed is not valid JSON: line 1, column 17: a comment (//): JSON has no comments; remove it")
        #expect(message("/* feed */ []").hasSuffix("line 1, column 1: a comment (/* */): JSON has no comments; remove it"))
        // Slashes inside strings (every URL) are no comment.
        #expect(message("[{\"picUrl\": \"https://x.test/a.jpg\", \"showTime\": 5}]") == "read")
        // A bracket of the wrong kind: which one is open, and what is missing.
        #expect(message("[\n {\"picUrl\": \"a.jpg\",\n  \"showTime\": 5 ]\n")
                == "the feed is not valid JSON: line 3, column 17: the object opened at line 2, column 2 is not closed: "
                + "a } is missing before this ]")
        #expect(message("{\"campaigns\": [{\"picUrl\": \"a].jpg\"}}") .hasSuffix("the list opened at line 1, column 15 is not closed: "
                + "a ] is missing before this }"))
    }

    @Test func aFeedCutShortSaysWhereItEnds() {
        do {
            _ = try FeedDocument.decode(Data("{\n \"campaigns\": [\n  {\"picUrl\": \"a.jpg\", \"showTime\": 3}\n ]\n".utf8),
                                        from: feedURL, deviceZone: .gmt)
            Issue.record("a feed cut short was read")
        } catch {
            #expect(error.localizedDescription
                == "the feed is not valid JSON: line 5, column 1: the document ends before it is complete (a closing } or ] or a quote is missing)")
        }
    }

    @Test func aMisspeltGroupsKeySaysTheCampaignIsShownEverywhere() throws {
        let doc = try FeedDocument.decode(Data(#"[{"picUrl": "a.jpg", "showTime": 1, "group": ["lobby"]}]"#.utf8),
                                          from: feedURL, deviceZone: .gmt)
        #expect(doc.campaigns.first?.groups == nil)
        #expect(doc.warnings.contains { $0.contains("did you mean groups?") && $0.contains("shown on every screen") }, "\(doc.warnings)")
        // A device group the feed never names, with the nearest one it does.
        let device = DeviceGroups(names: ["lobyy", "hall"], deviceID: "k1")
        #expect(device.unmatched(campaignGroups: [["lobby"], nil], scheduleGroups: ["cafe"]) == [
            "device-groups: lobyy: no campaign and no schedule of the feed names this group; did you mean lobby?",
            "device-groups: hall: no campaign and no schedule of the feed names this group (it shows the campaigns for every screen alone)",
        ])
        #expect(DeviceGroups(names: ["*"], deviceID: nil).unmatched(campaignGroups: [["lobby"]], scheduleGroups: []).isEmpty)
    }
}
