import Foundation
import Glibc
import SplashCore
@testable import SplashNetwork
import SplashServices
import SplashStorage
import SplashTestSupport
import Testing

/// Round five of hostile servers (docs/RELIABILITY.md): the libcurl fetcher against a server
/// that answers byte by byte, on 127.0.0.1 and ::1.
@Suite struct HostileFetchRoundFiveTests {
    let folder: String
    let server: RawTestServer
    let picture: Data

    init() throws {
        folder = try temporaryFolder()
        try writeImage(folder + "/p.jpg", width: 64, height: 48, bands: [RGBColor(red: 200, green: 40, blue: 40)])
        try "tiny".write(toFile: folder + "/tiny.txt", atomically: true, encoding: .utf8)
        picture = try Data(contentsOf: URL(fileURLWithPath: folder + "/p.jpg"))
        server = try RawTestServer(root: folder)
    }

    var port: Int { server.port }

    func fetcher(_ guardian: AddressGuard? = nil) -> Fetcher {
        let fetcher = Fetcher()
        fetcher.addressGuard = guardian
        fetcher.idleTimeout = 2
        fetcher.totalTimeout = 6
        return fetcher
    }

    /// What `body` threw, if anything.
    func failure(_ body: () throws -> Void) -> FetchError? {
        do {
            try body()
            return nil
        } catch {
            return error as? FetchError
        }
    }

    /// The request heads the server saw for paths starting with `prefix`.
    func heads(_ prefix: String) throws -> [String] {
        try server.heads().filter { $0.hasPrefix("GET \(prefix)") || $0.hasPrefix("POST \(prefix)") }
    }

    // 1. A URL with no host does not walk past the address guard.

    @Test func aURLWithNoHostIsRefusedBeforeAnythingIsSent() throws {
        let guardian = AddressGuard(rule: .refused, feed: URL(string: "http://feed.test/feed.json"))
        let forms = ["http:/127.0.0.1:\(port)/etag/good/p.jpg", "http:///127.0.0.1:\(port)/etag/good/p.jpg",
                     "HTTP:/127.0.0.1:\(port)/etag/good/p.jpg", "https:/127.0.0.1:\(port)/etag/good/p.jpg",
                     "http:127.0.0.1:\(port)/etag/good/p.jpg"]
        for form in forms {
            let url = try #require(URL(string: form))
            // With the guard in force and without any guard: refused as written, never sent.
            for fetcher in [fetcher(guardian), fetcher()] {
                let error = failure { _ = try fetcher.fetchData(url, limit: 1 << 20) }
                guard case .malformedURL? = error else { Issue.record("\(form): \(String(describing: error))"); continue }
                #expect(error?.neverLeft == true)
                #expect(error?.explained.contains("no host") == true, "\(error?.explained ?? "")")
            }
            let posted = failure { try fetcher(guardian).post(url, body: Data("{}".utf8), contentType: "application/json") }
            guard case .malformedURL? = posted else { Issue.record("POST \(form): \(String(describing: posted))"); continue }
        }
        // Redirected there by a host the guard lets through (the feed's own): refused too.
        let feed = server.url("/to")
        let own = AddressGuard(rule: .refused, feed: feed)
        let target = "http:/127.0.0.1:\(port)/etag/good/p.jpg"
        let redirect = try #require(URL(string: "http://127.0.0.1:\(port)/to?" + target))
        let error = own.whileFetchingFeed { failure { _ = try fetcher(own).fetchData(redirect, limit: 1 << 20) } }
        guard case .afterRedirect(.malformedURL, _)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(try heads("/etag/").isEmpty, "a hostless URL reached the server")
        // A feed that names such a picture has the entry refused, by its place.
        let document = try FeedDocument.decode(Data(#"[{"picUrl": "http:/127.0.0.1/a.jpg", "showTime": 1}, {"picUrl": "a.jpg", "showTime": 1}]"#.utf8),
                                               from: URL(string: "https://feed.test/feed.json")!, deviceZone: .gmt)
        #expect(document.campaigns.count == 1)
        #expect(document.warnings.contains { $0.contains("[0].picUrl") && $0.contains("no host") }, "\(document.warnings)")
    }

    // 2 and 3. Validators bounded, well-formed, and the URL's own.

    @Test func onlyWellFormedBoundedValidatorsAreKeptAndSentBack() throws {
        let f = fetcher()
        let date = "Sun, 06 Nov 1994 08:49:37 GMT"
        let good = try f.fetchData(server.url("/etag/good/p.jpg"), limit: 1 << 20).0
        #expect(good == .fetched(etag: #""good-1""#, lastModified: date, bytes: picture.count, cacheControl: "max-age=60"))
        // A bare CR inside the ETag: dropped (the date beside it is kept).
        let cr = try f.fetchData(server.url("/etag/cr/p.jpg"), limit: 1 << 20).0
        #expect(cr == .fetched(etag: nil, lastModified: date, bytes: picture.count, cacheControl: nil))
        // 95 KB of ETag and Cache-Control, a Last-Modified that is no date: none kept.
        let long = try f.fetchData(server.url("/etag/long/p.jpg"), limit: 1 << 20).0
        #expect(long == .fetched(etag: nil, lastModified: nil, bytes: picture.count, cacheControl: nil))
        // One stored before (with its CR) is never sent back; a good one is.
        _ = try f.fetchData(server.url("/etag/good/p.jpg?cr"), etag: "\"a\"\rX-Injected: 1", lastModified: "x\r\nY: 1", limit: 1 << 20)
        _ = try f.fetchData(server.url("/etag/good/p.jpg?ok"), etag: #""good-1""#, limit: 1 << 20)
        let sent = try heads("/etag/good/p.jpg?")
        #expect(sent.count == 2)
        #expect(!sent[0].contains("X-Injected") && !sent[0].contains("If-None-Match") && !sent[0].contains("If-Modified-Since"),
                "\(sent[0])")
        #expect(sent[1].contains("If-None-Match: \"good-1\""), "\(sent[1])")
        // After a redirect nothing is kept, and the first URL's validators go to it alone.
        let redirect = try #require(URL(string: "http://127.0.0.1:\(port)/to?/etag/good/p.jpg%3Fhop"))
        let hopped = try f.fetchData(redirect, etag: #""first""#, limit: 1 << 20).0
        #expect(hopped == .fetched(etag: nil, lastModified: nil, bytes: picture.count, cacheControl: nil))
        let first = try #require(try heads("/to?").last)
        let second = try #require(try heads("/etag/good/p.jpg?hop").last)
        #expect(first.contains("If-None-Match: \"first\"") && !second.contains("If-None-Match"), "\(first)\n\(second)")
    }

    @Test func picturesWithHugeETagsLeaveTheDatabaseSmall() throws {
        let root = try temporaryFolder()
        let store = try CampaignStore(dataDir: root + "/data")
        let cache = try ImageCache(folder: root + "/cache")
        let entries = (0..<40).map { #"{"id": "p\#($0)", "picUrl": "http://127.0.0.1:\#(port)/etag/long/p.jpg?n=\#($0)", "showTime": 5}"# }
        let feedFile = root + "/feed.json"
        try ("[" + entries.joined(separator: ",") + "]").write(toFile: feedFile, atomically: true, encoding: .utf8)
        let sync = FeedSync(store: store, cache: cache, fetcher: fetcher(), cacheMaxBytes: 256 << 20, videoMaxBytes: 64 << 20)
        let report = sync.sync(URL(fileURLWithPath: feedFile), now: Date(timeIntervalSince1970: 1_790_000_000))
        #expect(report.status == .ok && report.campaigns == 40, "\(report)")
        let keys = (0..<40).map { PictureKeys().of(URL(string: "http://127.0.0.1:\(port)/etag/long/p.jpg?n=\($0)")!).key }
        #expect(keys.allSatisfy { cache.contains(key: $0) })
        #expect(try store.validators(forKeys: keys).values.allSatisfy { $0.etag == nil })
        // 40 answers of 190 KB of validators each: 7.6 MB kept before; a few hundred KB now.
        let bytes = try FileManager.default.contentsOfDirectory(atPath: root + "/data").reduce(0) { total, name in
            total + ((try FileManager.default.attributesOfItem(atPath: root + "/data/" + name)[.size] as? Int) ?? 0)
        }
        #expect(bytes < 1 << 20, "data folder: \(bytes) bytes")
    }

    // 4. Secrets never stored or printed.

    @Test func aPasswordOrTokenIsInNoErrorNoFileAndNoOutput() throws {
        let secret = "s3cret", token = "t0ken"
        let addresses = ["http://user:\(secret)@127.0.0.1:\(port)/status503?token=\(token)",
                         // a relative redirect, resolved against the address with its user part
                         "http://user:\(secret)@127.0.0.1:\(port)/to?status503%3Ftoken=\(token)",
                         // the host written as a number, rewritten before the request
                         "http://user:\(secret)@2130706433:\(port)/status503?token=\(token)"]
        for address in addresses {
            let error = failure { _ = try fetcher().fetchData(URL(string: address)!, limit: 1 << 16) }
            let text = "\(error?.explained ?? "no error") \(String(describing: error))"
            #expect(error != nil && !text.contains(secret) && !text.contains(token), "\(text)")
        }
        // `splashboard sync` on such a feed, failing and then succeeding: nothing on disk or in its output.
        let root = try temporaryFolder()
        try "[{\"picUrl\": \"p.jpg\", \"showTime\": 3}]".write(toFile: folder + "/feed.json", atomically: true, encoding: .utf8)
        let common = ["--data-dir", root + "/data", "--cache-dir", root + "/cache", "--allow-private-addresses", "yes"]
        let failing = try runKiosk(["sync", "--feed", addresses[1]] + common)
        let working = try runKiosk(["sync", "--feed", "http://user:\(secret)@127.0.0.1:\(port)/etag/good/feed.json?token=\(token)"] + common)
        let listed = try runKiosk(["campaigns"] + common)
        #expect(failing.status == 1 && working.status == 0, "\(failing.stderr)\n\(working.stdout)\(working.stderr)")
        for run in [failing, working, listed] {
            let output = run.stdout + run.stderr
            #expect(!output.contains(secret) && !output.contains(token), "\(output)")
        }
        for folder in [root + "/data", root + "/cache"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
                #expect(bytes.range(of: Data(secret.utf8)) == nil && bytes.range(of: Data(token.utf8)) == nil, "\(folder)/\(name)")
            }
        }
    }

    // 5. "Never left" from libcurl's facts.

    @Test func anAnswerThatIsNotHTTPLeftAndIsSaidSo() throws {
        let error = failure { _ = try fetcher().fetchData(server.url("/garbage"), limit: 1 << 16) }
        #expect(error?.neverLeft == false, "\(String(describing: error))")
        #expect(error?.explained.contains("not HTTP") == true, "\(error?.explained ?? "")")
        #expect(try heads("/garbage").count == 1)
        // Nothing listening: that one never left.
        let refused = failure { _ = try fetcher().fetchData(URL(string: "http://127.0.0.1:\(unusedPort())/")!, limit: 1 << 16) }
        #expect(refused?.neverLeft == true)
    }

    // 6. The type sniffed from enough bytes, however the body is cut.

    @Test func aPictureWhoseFirstChunkIsOneByteIsRecognised() throws {
        var seen: [UInt8] = []
        var body = Data()
        _ = try fetcher().fetch(server.url("/chunked1/p.jpg"), limit: 1 << 20,
                                inspect: { seen = $0; try ImageDownloader.refuseEarly($0) }, sink: { body.append($0) })
        #expect(seen.count >= FirstBytes.needed)
        #expect(body == picture)
        // A body shorter than that is inspected whole.
        var short: [UInt8] = []
        _ = try fetcher().fetch(server.url("/etag/good/tiny.txt"), limit: 1 << 20, inspect: { short = $0 }, sink: { _ in })
        #expect(short == Array("tiny".utf8))
    }

    // 7. True messages.

    @Test func messagesSayWhatHappened() throws {
        let f = fetcher()
        for scheme in ["gopher://127.0.0.1/", "file:///etc/passwd", "ftp://127.0.0.1/x"] {
            let error = failure { _ = try f.fetchData(URL(string: "http://127.0.0.1:\(port)/to?" + scheme)!, limit: 1 << 16) }
            let name = String(scheme.prefix { $0 != ":" })
            #expect(error?.explained.contains("to a \(name): URL") == true, "\(error?.explained ?? "")")
        }
        let head = failure { _ = try f.fetchData(server.url("/bighead"), limit: 1 << 16) }
        #expect(head?.explained.contains("header line longer") == true, "\(head?.explained ?? "")")
        let unasked = failure { _ = try f.fetchData(server.url("/always304"), limit: 1 << 16) }
        guard case .unaskedNotModified? = unasked else { Issue.record("\(String(describing: unasked))"); return }
        // Asked, a 304 is what it says.
        #expect(try f.fetchData(server.url("/always304"), etag: #""x""#, limit: 1 << 16).0 == .notModified)
        // An IPv6 address in the URL is fetched, and judged by the address guard.
        let v6 = try #require(URL(string: "http://[::1]:\(port)/etag/good/p.jpg"))
        #expect(try f.fetchData(v6, limit: 1 << 20).1 == picture)
        let guarded = failure { _ = try fetcher(AddressGuard(rule: .refused, feed: URL(string: "http://feed.test/"))).fetchData(v6, limit: 1 << 20) }
        guard case .insideAddress? = guarded else { Issue.record("\(String(describing: guarded))"); return }
    }
}
