import Foundation
import SplashCore
import SplashTestSupport
import Testing

/// The hidden operator view, opened and closed as a technician would, and drawn from
/// the thumbnails in the database.
@Suite struct OperatorViewTests {
    final class OperatorKiosk {
        let folder: String
        init() throws {
            folder = try temporaryFolder()
            let www = folder + "/www"
            try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
            try writeImage(www + "/r.png", width: 320, height: 200, bands: [red])
            try writeImage(www + "/g.png", width: 320, height: 200, bands: [green])
            try writeImage(www + "/b.png", width: 320, height: 200, bands: [blue])
            try """
            [{"id": "red", "picUrl": "r.png", "showTime": 5, "title": "红"},
             {"id": "green", "picUrl": "g.png", "showTime": 5, "title": "绿"},
             {"id": "blue", "picUrl": "b.png", "showTime": 0, "title": "蓝"}]
            """.write(toFile: www + "/feed.json", atomically: true, encoding: .utf8)
        }
        var args: [String] {
            ["--feed", folder + "/www/feed.json", "--data-dir", folder + "/data", "--cache-dir", folder + "/cache"]
        }
        func run(script: String, until: String = "6", extra: [String] = []) throws -> KioskRun {
            try script.write(toFile: folder + "/script", atomically: true, encoding: .utf8)
            return try runKiosk(["--headless", "--clock", "virtual", "--script", folder + "/script", "--exit-after", until]
                                + args + extra)
        }
    }

    @Test func aLongPressInTheCornerOpensTheGridOfStoredThumbnails() throws {
        let k = try OperatorKiosk()
        #expect(try runKiosk(["sync"] + k.args).status == 0)
        // Spoil the cached pictures: the view must not need them, only the thumbnails.
        for name in try FileManager.default.contentsOfDirectory(atPath: k.folder + "/cache") {
            try Data(repeating: 0, count: 64).write(to: URL(fileURLWithPath: k.folder + "/cache/" + name))
        }
        let shots = k.folder + "/shots"
        let run = try k.run(script: "0.5 hold 20 20 3.2\n", extra: ["--snapshot", shots])
        #expect(run.status == 0, "\(run.stderr)")
        let opened = try #require(run.events(named: "operator").first)
        #expect(opened["open"] as? Bool == true)
        #expect(opened["t"] as? Double == 3.5)
        // The press in the corner did not click through the splash.
        #expect(!run.events(named: "skip").contains { $0["by"] as? String == "click_through" })

        let view = try Snapshot(try #require(snapshots(shots).last { $0.hasSuffix("-operator.png") }))
        let grid = Rect(x: 0, y: 60, width: 780, height: 400)
        for color in [red, green, blue] {
            let matching = grid.width * grid.height - view.count(in: grid, differingFrom: color, by: 30)
            #expect(matching > 2000, "thumbnail colour \(color) drawn on \(matching) pixels")
        }
        // The one that would show next is marked with the widget yellow.
        let yellow = grid.width * grid.height - view.count(in: grid, differingFrom: .widgetYellow, by: 10)
        #expect(yellow > 300)
    }

    @Test func f2OpensAndEscapeCloses() throws {
        let k = try OperatorKiosk()
        let run = try k.run(script: "0.5 key f2\n1.5 key escape\n", until: "2")
        #expect(run.events(named: "operator").compactMap { $0["open"] as? Bool } == [true, false])
        // Opening from the splash ends it, by a reason of its own; closing leads to the detail screen.
        #expect(run.events(named: "skip").first?["by"] as? String == "operator_view")
        #expect(run.names.last(where: { $0 == "detail" || $0 == "operator" }) == "detail")
        let ctrlO = try k.run(script: "0.5 key ctrl+o\n1 key ctrl+o\n", until: "2")
        #expect(ctrlO.events(named: "operator").compactMap { $0["open"] as? Bool } == [true, false])
    }

    @Test func thirtySecondsWithoutInputCloseIt() throws {
        let k = try OperatorKiosk()
        let run = try k.run(script: "0.5 key f2\n10 tap 600 400\n", until: "45", extra: ["--attract-after", "0"])
        let events = run.events(named: "operator")
        #expect(events.compactMap { $0["open"] as? Bool } == [true, false])
        #expect(events.last?["t"] as? Double == 40)
    }

    @Test func aShortTapInTheCornerDoesNotOpenIt() throws {
        let k = try OperatorKiosk()
        let run = try k.run(script: "0.5 tap 20 20\n1 hold 10 10 2.5\n", until: "8")
        #expect(run.events(named: "operator").isEmpty)
        // A short tap in the corner is still a tap: it clicks through the splash.
        #expect(run.events(named: "skip").first?["by"] as? String == "click_through")
    }

    @Test func thumbnailsAreWrittenForRemoteSupport() throws {
        let k = try OperatorKiosk()
        #expect(try runKiosk(["sync"] + k.args).status == 0)
        let dir = k.folder + "/thumbs"
        let r = try runKiosk(["campaigns", "--thumbnails", dir] + k.args)
        #expect(r.status == 0, "\(r.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(files == ["01-red.jpg", "02-green.jpg", "03-blue.jpg"])
        let thumb = try Snapshot(dir + "/02-green.jpg")
        #expect(max(thumb.width, thumb.height) == 320)
        #expect(thumb.color(80, 50).isClose(to: green, tolerance: 20))
        #expect(try runKiosk(["sync", "--thumbnails", dir] + k.args).status == 2)
    }

    @Test func aLibraryOfSixtyIsBrowsedPageByPageAndACardOpensItsPage() throws {
        let folder = try temporaryFolder()
        let colors = [red, green, blue]
        for (i, color) in colors.enumerated() {
            try writeImage(folder + "/p\(i).png", width: 320, height: 200, bands: [color])
        }
        let entries = (0..<60).map { i in
            #"{"id": "c\#(String(format: "%02d", i))", "picUrl": "p\#(i % 3).png", "showTime": \#(i % 9 == 4 ? 0 : 20), "#
                + #""title": "活动 \#(i)", "updatedAt": "2026-11-\#(String(format: "%02d", 1 + i % 28))T08:00:00Z"}"#
        }
        _ = try writeFeed(folder, "[" + entries.joined(separator: ",") + "]")
        let args = ["--feed", folder + "/feed.json", "--data-dir", folder + "/data", "--cache-dir", folder + "/cache"]
        #expect(try runKiosk(["sync"] + args).status == 0)
        // Some shows first, for a campaign page with a ledger.
        _ = try runKiosk(["--headless", "--clock", "virtual", "--countdown", "1", "--attract-after", "1",
                          "--exit-after", "8"] + args)
        let listed = try runKiosk(["campaigns", "--json"] + args)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let next = try #require(rows.first { $0["newest"] as? Bool == true }?["id"] as? String)

        let shots = folder + "/shots"
        // Forward through every page (a key, then a swipe, then keys, and one more on the last
        // page, which stays there), back a page by a swipe, back to the first by keys, then a
        // tap on its first card: as many steps as the layout makes pages of sixty.
        let layout = OperatorLayout(screen: Size(width: 1280, height: 720))
        let pageCount = layout.pages(for: 60)
        #expect(pageCount >= 3)
        var steps = ["key f2", "key pagedown", "swipe 700 400 100 400 0.2"]
        steps += Array(repeating: "key pagedown", count: pageCount - 2)
        steps += ["swipe 100 400 700 400 0.2"] + Array(repeating: "key left", count: pageCount - 2)
        let card = layout.card(0).center
        steps += ["tap \(card.x) \(card.y)"]
        var lines = steps.enumerated().map { "\(Double($0.offset) * 0.5 + 0.5) \($0.element)" }
        let end = steps.count / 2 + 3
        lines.append("\(end - 1) key escape")
        try lines.joined(separator: "\n").write(toFile: folder + "/script", atomically: true, encoding: .utf8)
        let run = try runKiosk(["--headless", "--clock", "virtual", "--script", folder + "/script",
                                "--exit-after", "\(end)", "--snapshot", shots] + args)
        #expect(run.status == 0, "\(run.stderr)")
        let pages = run.events(named: "operator_page")
        let count = try #require(pages.first?["of"] as? Int)
        #expect(count >= 2)
        // Forward through every page once: each campaign once; PageDown on the last page stays there.
        let forward = pages.prefix(count)
        let ids = forward.flatMap { $0["campaigns"] as? [String] ?? [] }
        #expect(forward.map { $0["page"] as? Int } == Array(1...count).map(Optional.some))
        #expect(ids.count == 60 && Set(ids).count == 60, "\(ids.count) cards, \(Set(ids).count) distinct")
        #expect(ids.first == next, "the next campaign is not the first card")
        #expect(pages.dropFirst(count).first?["page"] as? Int == count - 1, "the swipe back did not go back a page")
        // Pages 1 and 2 look different.
        let operatorShots = try snapshots(shots).filter { $0.hasSuffix("-operator.png") }
        let first = try Snapshot(operatorShots[0])
        let second = try Snapshot(operatorShots[1])
        #expect(first.differences(from: second, in: Rect(x: 0, y: 60, width: first.width, height: first.height - 60)) > 1000)
        // Back on page 1, a tap on the first card opens its page, with its ledger as campaigns --json has it
        // (the splash F2 ended is its newest show).
        let opened = try #require(run.events(named: "operator_campaign").first)
        #expect(opened["campaign"] as? String == next)
        let after = try runKiosk(["campaigns", "--json"] + args)
        let afterRows = try #require(try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [[String: Any]])
        let drawn = (opened["shows"] as? [[String: Any]] ?? []).map { [$0["at"] as? String, $0["ended_by"] as? String] }
        let stored = (afterRows.first { $0["id"] as? String == next }?["lastShows"] as? [[String: Any]] ?? [])
            .map { [$0["at"] as? String, $0["endedBy"] as? String] }
        #expect(drawn.count > 1 && drawn == stored, "page \(drawn) vs ledger \(stored)")
        #expect(drawn.first?[1] == "operator_view")
        // Escape went back to the library; browsing counted nothing: one show more, the splash before F2.
        #expect(run.events(named: "operator").compactMap { $0["open"] as? Bool } == [true])
        func total(_ rows: [[String: Any]]) -> Int { rows.compactMap { $0["shows"] as? Int }.reduce(0, +) }
        #expect(total(afterRows) == total(rows) + 1)
    }
}
