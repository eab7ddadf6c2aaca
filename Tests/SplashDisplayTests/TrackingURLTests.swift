import Foundation
import SplashTestSupport
import Testing

/// The ad networks' tracking URLs: an impression per show after its first frame, a click
/// per click-through, macros filled in and URL-encoded, each at most once.
@Suite struct TrackingURLTests {
    @Test func impressionsAndClicksArriveOncePerShowWithTheirMacros() throws {
        let folder = try temporaryFolder()
        try writeImage(folder + "/a.jpg", width: 320, height: 180, bands: [.init(red: 20, green: 90, blue: 200)])
        let server = try TestServer(root: folder)
        let base = "http://127.0.0.1:\(server.port)"
        _ = try writeFeed(folder, """
        [{"id": "ad 1", "picUrl": "a.jpg", "showTime": 1000,
          "impressionUrls": ["\(base)/track/imp?c={campaign}&s={show}&d={device}&t={ts}", "ftp://nope/x", 5],
          "clickUrls": ["\(base)/track/click?s={show}"]}]
        """)
        let args = ["--feed", "\(base)/files/feed.json", "--data-dir", folder + "/data", "--cache-dir", folder + "/cache",
                    "--device-id", "lobby-3", "--countdown", "2"]
        try "3.5 tap 100 400\n".write(toFile: folder + "/script", atomically: true, encoding: .utf8)
        let first = try runKiosk(["--headless", "--clock", "virtual", "--attract-after", "1", "--exit-after", "12",
                                  "--script", folder + "/script"] + args)
        #expect(first.status == 0)
        let warnings = first.events(named: "warning").compactMap { $0["message"] as? String }
        #expect(warnings.contains { $0.contains("impressionUrls[1]: is not an http or https URL") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("impressionUrls[2]: must be a URL string") })
        // In real time, a second run sends what waits at its first sync, and its own show's.
        let second = try runKiosk(["--headless", "--countdown", "30", "--exit-after", "3"] + args)
        #expect(second.status == 0)

        let tracked = try JSONSerialization.jsonObject(with: Data(contentsOf: server.url("/tracked"))) as? [String] ?? []
        let impressions = tracked.filter { $0.hasPrefix("/track/imp?") }.compactMap { URLComponents(string: $0) }
        let clicks = tracked.filter { $0.hasPrefix("/track/click?") }
        let shows = first.events(named: "splash").count + second.events(named: "splash").count
        let ids = impressions.compactMap { $0.queryItems?.first { $0.name == "s" }?.value }
        #expect(Set(ids).count == ids.count, "an impression sent twice: \(ids)")
        #expect(ids.count >= shows - 1 && ids.count <= shows, "\(ids.count) impressions for \(shows) shows")
        for item in impressions {
            let query = Dictionary(uniqueKeysWithValues: (item.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            #expect(query["c"] == "ad 1" && query["d"] == "lobby-3")
            #expect(Int64(query["t"] ?? "").map { $0 > 1_700_000_000_000 } == true)
        }
        #expect(impressions.allSatisfy { $0.percentEncodedQuery?.contains("c=ad%201&") == true })
        #expect(clicks.count == 1, "\(clicks)")
        if let click = clicks.first, let show = URLComponents(string: click)?.queryItems?.first?.value {
            #expect(ids.contains(show), "the click's show had no impression")
        }
    }
}
