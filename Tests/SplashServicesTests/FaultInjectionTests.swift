import Foundation
import SplashCore
import SplashServices
import SplashNetwork
import SplashTestSupport
import Testing

/// Hostile answers from the network: each is refused with a reason, the last good
/// campaign stays, and no final cache name ever holds a partial or invalid file.
@Suite struct FaultInjectionTests {
    static let hostileFeeds: [(String, [UInt8], String)] = [
        ("empty", [], "not valid JSON"),
        ("nested", Array(String(repeating: "[", count: 100_000).utf8) + Array(String(repeating: "]", count: 100_000).utf8),
         "not valid JSON"),
        ("not-utf8", [0x5B, 0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D, 0x5D], "not valid JSON"),
        ("nul", Array("[{\"id\":\"a\u{0}b\",\"picUrl\":\"a.png\",\"showTime\":1}]".utf8), "not valid JSON"),
        ("types", Array(#"[{"picUrl": 5, "showTime": "3"}, {"picUrl": ["a"], "showTime": null}]"#.utf8), "no campaign"),
        ("numbers", Array(#"[{"picUrl":"a.png","showTime":1e300},{"picUrl":"a.png","showTime":-7},{"picUrl":"a.png","showTime":12345678901234567890123}]"#.utf8),
         "no campaign"),
        ("shape", Array(#"{"campaigns": {"a": 1}}"#.utf8), "campaigns"),
        ("number", Array("42".utf8), "got 42"),
    ]

    @Test(arguments: hostileFeeds.indices)
    func hostileFeedsChangeNothing(index: Int) throws {
        let (name, bytes, expected) = Self.hostileFeeds[index]
        let f = try SyncFixture()
        try f.publishImage("a.png", red)
        try f.publish("feed.json", #"[{"id": "good", "picUrl": "a.png", "showTime": 5}]"#)
        #expect(f.sync(f.feedURL()).status == .ok)
        let before = try f.catalog()
        try Data(bytes).write(to: URL(fileURLWithPath: f.www + "/" + name))
        let report = f.sync(f.feedURL(name))
        #expect(report.status == .error, "\(name)")
        #expect(report.error?.contains(expected) == true, "\(name): \(report.error ?? "no error")")
        #expect(try f.catalog() == before)
        #expect(f.cacheIsClean())
    }

    @Test func aDripFeedIsCutAtTheWholeRequestLimit() throws {
        let f = try SyncFixture()
        // A byte a second: libcurl 8.14 may count that as below its 1 B/s floor, so the idle
        // limit is set past the whole-request limit (3 s), which alone can end it; the
        // message says which limit did.
        f.fetcher.idleTimeout = 5
        f.fetcher.totalTimeout = 3
        let report = f.sync(f.server.url("/drip"))
        #expect(report.status == .error)
        #expect(report.error?.contains("did not answer in time (3 s)") == true, "\(report.error ?? "")")
    }

    /// A server's address written as one number or in short is fetched (it is the address
    /// the HTTP library connects to anyway); an IPv6 address in a URL is said to be one it
    /// cannot fetch, with what to do, not as error -1000.
    @Test func addressesWrittenAsNumbersAreFetched() throws {
        let f = try SyncFixture()
        try f.publish("a.txt", "hello")
        let port = f.server.port
        for host in ["2130706433", "127.1", "0x7f000001"] {
            let (_, data) = try f.fetcher.fetchData(URL(string: "http://\(host):\(port)/files/a.txt")!, limit: 1024)
            #expect(String(decoding: data, as: UTF8.self) == "hello", "\(host)")
        }
        // An IPv6 address is fetched as written (this server listens on 127.0.0.1 alone, so
        // [::1] refuses the connection; HostileFetchRoundFiveTests fetches one that answers).
        do {
            _ = try f.fetcher.fetchData(URL(string: "http://[::1]:\(port)/files/a.txt")!, limit: 1024)
            Issue.record("fetched from [::1], where nothing listens")
        } catch {
            #expect(error.localizedDescription.contains("connection to [::1]:\(port) refused"), "\(error)")
        }
    }

    @Test func moreHostilePictures() throws {
        let f = try SyncFixture()
        try f.publishImage("good.png", red)
        var png = try Data(contentsOf: URL(fileURLWithPath: f.www + "/good.png"))
        // Flip a byte inside the first data chunk: its CRC no longer matches.
        if let idat = png.range(of: Data("IDAT".utf8)) { png[idat.upperBound + 2] ^= 0xFF }
        try png.write(to: URL(fileURLWithPath: f.www + "/crc.png"))
        try Data([0x42, 0x4D] + [UInt8](repeating: 0, count: 60)).write(to: URL(fileURLWithPath: f.www + "/pic.bmp"))
        let jpegHeader: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0,
                                   0xFF, 0xC0, 0, 17, 8, 0xEA, 0x60, 0xEA, 0x60, 3] + [UInt8](repeating: 0, count: 200)
        try Data(jpegHeader).write(to: URL(fileURLWithPath: f.www + "/huge.jpg"))
        try f.publish("feed.json", """
        [{"id": "good", "picUrl": "good.png", "showTime": 5},
         {"id": "crc", "picUrl": "crc.png", "showTime": 5},
         {"id": "bmp", "picUrl": "pic.bmp", "showTime": 5},
         {"id": "huge", "picUrl": "huge.jpg", "showTime": 5},
         {"id": "local", "picUrl": "file:///etc/passwd", "showTime": 5},
         {"id": "LOCAL", "picUrl": "FILE:///etc/passwd", "showTime": 5}]
        """)
        let report = f.sync(f.feedURL())
        #expect(report.status == .ok)
        func problem(_ id: String) -> String { report.pictureErrors.first { $0.contains("\"\(id)\"") } ?? "" }
        #expect(problem("crc").contains("cannot be decoded"), "\(problem("crc"))")
        #expect(problem("bmp").contains("BMP"))
        #expect(problem("huge").contains("60000×60000"))
        // A feed from the network may not name a local file.
        #expect(report.warnings.filter { $0.contains("only a local feed") }.count == 2, "\(report.warnings)")
        #expect(try f.eligibleIDs() == ["good"])
        #expect(f.cacheIsClean())
    }

    @Test func redirectsNeverGoFromHTTPSToHTTP() {
        let https = URL(string: "https://cdn.example.test/feed.json")!
        let http = URL(string: "http://cdn.example.test/feed.json")!
        #expect(Fetcher.redirectAllowed(from: https, to: URL(string: "https://other.example.test/f.json")))
        #expect(!Fetcher.redirectAllowed(from: https, to: http))
        #expect(Fetcher.redirectAllowed(from: http, to: https))
        #expect(!Fetcher.redirectAllowed(from: http, to: URL(string: "file:///etc/passwd")))
        #expect(!Fetcher.redirectAllowed(from: http, to: nil))
        // Every hop counts, not the first alone: http → https → http is refused too.
        #expect(!Fetcher.redirectAllowed(after: [http, https], to: http))
        #expect(Fetcher.redirectAllowed(after: [http, http], to: http))
        #expect(Fetcher.redirectAllowed(after: [http, https], to: https))
    }

    @Test func certificatesAreVerified() throws {
        // A TLS server with a self-signed certificate on 127.0.0.1: the fetch is refused.
        let folder = try temporaryFolder()
        let server = try TLSTestServer(folder: folder)
        let fetcher = Fetcher()
        fetcher.idleTimeout = 3
        fetcher.totalTimeout = 5
        do {
            _ = try fetcher.fetchData(URL(string: "https://127.0.0.1:\(server.port)/")!, limit: 1 << 20)
            Issue.record("a self-signed certificate was accepted")
        } catch {
            #expect(error.localizedDescription.lowercased().contains("certificate")
                    || error.localizedDescription.lowercased().contains("ssl"), "\(error.localizedDescription)")
        }
    }
}
