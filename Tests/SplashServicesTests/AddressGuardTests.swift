import Foundation
import Glibc
import SplashCore
@testable import SplashServices
@testable import SplashNetwork
import SplashTestSupport
import Testing

/// The address guard as the fetcher meets it: libcurl asks it before each connection, with
/// the address it is about to connect to, and the fault server on 127.0.0.1 is inside.
@Suite struct AddressGuardTests {
    let folder: String
    let server: TestServer

    init() throws {
        folder = try temporaryFolder()
        try "hello through the guard\n".write(toFile: folder + "/a.txt", atomically: true, encoding: .utf8)
        server = try TestServer(root: folder)
    }

    var target: String { "127.0.0.1:\(server.port)" }
    var feed: URL { server.url("/files/feed.json") }

    /// A fetcher checked by `guardian`, with `names` resolved as given (`host:port:address`).
    func fetcher(_ guardian: AddressGuard, names: [String] = []) -> Fetcher {
        let fetcher = Fetcher()
        fetcher.addressGuard = guardian
        fetcher.resolving = names
        return fetcher
    }

    /// The body of `url` through `fetcher`, or the error it failed with.
    func fetch(_ fetcher: Fetcher, _ url: String) -> Swift.Result<String, Error> {
        Swift.Result { String(decoding: try fetcher.fetchData(URL(string: url)!, limit: 1 << 16).1, as: UTF8.self) }
    }

    func refused(_ result: Swift.Result<String, Error>) -> Bool {
        if case .failure(FetchError.insideAddress) = result { return true }
        return false
    }

    @Test func aRefusedAddressGetsNoConnectionAndTheReasonIsKept() throws {
        let guardian = AddressGuard(rule: .refused, feed: feed)
        let result = fetch(fetcher(guardian), "http://\(target)/files/a.txt")
        guard case .failure(let error) = result else { Issue.record("fetched: \(result)"); return }
        #expect(error.explained.contains("127.0.0.1, a loopback address"), "\(error)")
        let refusal = guardian.refusal(host: "127.0.0.1", port: server.port)
        #expect(refusal?.address.description == "127.0.0.1")
        #expect(refusal?.kind == "loopback")
        // A request that begins later is not told of it: the refusal was not its own.
        let later = guardian.mark()
        #expect(guardian.refusal(host: "127.0.0.1", port: server.port, since: later) == nil)
        // Nothing reached the server: no connection was made.
        #expect(try server.requestCounts()["/files/a.txt"] == nil)
    }

    @Test func theFeedItselfGoesThroughAndOnlyItsOwnRequest() throws {
        let guardian = AddressGuard(rule: .refused, feed: feed)
        let own = fetcher(guardian)
        let fed = guardian.whileFetchingFeed { fetch(own, "http://\(target)/files/a.txt") }
        #expect((try? fed.get()) == "hello through the guard\n", "\(fed)")
        #expect(guardian.refusal(host: "127.0.0.1", port: server.port) == nil)
        // Only the feed's host and port count as the feed: a name for the same place does not.
        let named = guardian.whileFetchingFeed { fetch(own, "http://localhost:\(server.port)/files/a.txt") }
        #expect(refused(named), "\(named)")
        // Only the feed request's own: a second request to the feed's host while it is in
        // flight (a ping the feed named, racing it) is checked as any other.
        let (first, second) = guardian.whileFetchingFeed {
            (fetch(own, "http://\(target)/files/a.txt"), fetch(own, "http://\(target)/files/a.txt"))
        }
        #expect((try? first.get()) != nil && refused(second), "\(first) / \(second)")
        // Nor is the feed's connection kept for a later request to the same place.
        #expect(refused(fetch(own, "http://\(target)/files/a.txt")))
    }

    @Test func aPictureBesideALocalFeedIsFetched() throws {
        // A feed on this machine allows pictures on it (automatic).
        let guardian = AddressGuard(rule: .automatic, feed: feed)
        let result = fetch(fetcher(guardian), "http://localhost:\(server.port)/files/a.txt?v=%41")
        #expect((try? result.get()) == "hello through the guard\n", "\(result)")
        #expect(try server.requestCounts()["/files/a.txt"] == 1)
    }

    /// Nothing is put in the way where nothing would be refused, or where a proxy decides.
    /// (Only cases that install nothing are tried here: installing checks every fetch of this
    /// whole test process. The `sync` command's test installs it for real.)
    @Test func noGuardWhereItWouldRefuseNothing() throws {
        for feed in ["file:///srv/feed.json", "http://192.168.1.20/feed.json", "http://[::1]:8080/feed.json"] {
            let installed = try AddressGuard.install(rule: .automatic, feed: URL(string: feed)!, environment: [:])
            #expect(installed.guard == nil && installed.reason == nil, "\(feed)")
        }
        let allowed = try AddressGuard.install(rule: .allowed, feed: URL(string: "https://93.184.215.14/f.json")!, environment: [:])
        #expect(allowed.guard == nil)
        let proxied = try AddressGuard.install(rule: .refused, feed: URL(string: "https://93.184.215.14/f.json")!,
                                               environment: ["https_proxy": "http://proxy.lan:3128"])
        #expect(proxied.guard == nil && proxied.reason?.contains("https_proxy") == true)
        #expect(AddressGuard.literal("10.0.0.1")?.internalKind == "private")
        #expect(AddressGuard.literal("cdn.example.test") == nil)
    }

    @Test func theFeedsDNSNeverOpensInsideAddresses() throws {
        // The feed's host is a name whose DNS (libcurl's resolve list here) answers 127.0.0.1.
        // However it answers, the feed is what the operator wrote: a name, not an inside
        // address. A picture on another inside address is refused before the feed's own
        // request and after it, when that request connected inside; the feed's own host
        // stays open.
        let name = URL(string: "http://feed.example.test:\(server.port)/files/feed.json")!
        let names = ["feed.example.test:\(server.port):127.0.0.1", "picture.example.test:\(server.port):127.0.0.1"]
        let guardian = AddressGuard(rule: .automatic, feed: name)
        let kiosk = fetcher(guardian, names: names)
        let picture = "http://\(target)/files/a.txt"
        #expect(refused(fetch(kiosk, picture)), "a lookup of the feed's name opened inside addresses")
        #expect(guardian.feedIsInside() == false)
        let beside = "http://feed.example.test:\(server.port)/files/a.txt"
        let fed = guardian.whileFetchingFeed { fetch(kiosk, beside) }
        #expect((try? fed.get()) != nil, "\(fed)")
        #expect(guardian.feedIsInside() == false)
        #expect(refused(fetch(kiosk, picture)))
        // A name that resolves inside (rebinding) is refused as its address is.
        #expect(refused(fetch(kiosk, "http://picture.example.test:\(server.port)/files/a.txt")))
        // A picture beside the feed, on the host the operator named: fetched.
        #expect((try? fetch(kiosk, beside).get()) != nil)
        // Under `no`, only the feed's own request reaches inside.
        let strict = AddressGuard(rule: .refused, feed: name)
        #expect(refused(fetch(fetcher(strict, names: names), beside)))
    }

    @Test func aFeedOnTheInternetRefusesInsideAddressesByDefault() throws {
        // An address literal: no name to resolve, so no network is needed to decide.
        let guardian = AddressGuard(rule: .automatic, feed: URL(string: "https://93.184.215.14/feed.json")!)
        #expect(refused(fetch(fetcher(guardian), "http://\(target)/files/a.txt")))
        let allowing = AddressGuard(rule: .allowed, feed: URL(string: "https://93.184.215.14/feed.json")!)
        #expect((try? fetch(fetcher(allowing), "http://\(target)/files/a.txt").get()) != nil)
    }
}
