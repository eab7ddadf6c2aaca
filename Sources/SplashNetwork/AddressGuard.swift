import FoundationEssentials
import SplashServices
import Glibc
import SplashCore

/// Keeps a feed's pictures, poems and redirects from reaching inside the kiosk's network
/// (`allow-private-addresses`): an HTTP proxy on 127.0.0.1 that this process's requests
/// go through, which resolves each destination itself, checks the address it is about to
/// connect to, and connects to nothing else. The check is on the address connected, not on
/// a name: a name that answers a public address once and 127.0.0.1 the next time (DNS
/// rebinding) is refused on the second. Whether the feed itself is inside comes from the
/// address its own request connected to, never from a lookup of its own.
///
/// URLSession on Linux hands requests to libcurl, which reads the proxy from the
/// environment (`http_proxy`, `https_proxy`); `install` sets those once, before the first
/// request. https goes through as a CONNECT tunnel, so certificates are checked end to end
/// as before; plain http is forwarded one request per connection. A refused destination is
/// answered 403, and `refusal(host:port:)` tells the fetcher why, for its error.
///
/// The rule and its record are here; the proxy's parts are in `AddressGuard+Proxy.swift`.
public final class AddressGuard: @unchecked Sendable {
    /// The guard this process's requests go through, once installed.
    public private(set) nonisolated(unsafe) static var installed: AddressGuard?

    /// The port the proxy listens on, on 127.0.0.1.
    public let port: Int
    /// What this process's requests authenticate with (`Proxy-Authorization: Basic …`): a
    /// random secret, so that no other program on the machine can use the proxy to reach
    /// what it could not reach itself.
    let credential: (user: String, secret: String)
    private let rule: PrivateAddresses
    private let feed: URL?
    let listener: Int32
    let lock = Lock()
    private var feedRequests = 0
    /// Connections that may still count as a feed request's own: one per feed request in
    /// flight, so that a ping or picture to the feed's host racing it is checked as any other.
    private var feedTickets = 0
    /// Places the operator named besides the feed (the report receiver): always reachable.
    private var named = Set<String>()
    /// The address the feed's own request last connected to: whether the feed is inside
    /// the network is decided from it, never from a lookup of its own (which the feed's DNS
    /// could answer differently).
    var refusals: [String: (address: NetworkAddress, kind: String, mark: UInt64)] = [:]
    /// Why the last connection to a host:port could not be made, when no rule refused it:
    /// the fetcher reports this instead of the proxy's 502.
    var failures: [String: (error: FetchError, mark: UInt64)] = [:]
    /// Counts the connections served: a refusal or failure is reported only to a request
    /// that began before it (`mark`), never to a later one it has nothing to do with.
    var served: UInt64 = 0
    /// The mark of the last connection answered 503 because the guard was full.
    var lastBusy: UInt64 = 0
    var active = 0
    let resolver: (String, Int) -> (found: [Candidate], error: String)

    /// Seconds a connection may go without a byte either way before the proxy drops it;
    /// the fetcher's own limits end a transfer well before.
    static let idleSeconds: Int32 = 60
    static let connectMilliseconds: Int32 = 5000
    /// Milliseconds a connection has to send its whole request head, credential included.
    static let headMilliseconds = 2000
    /// Connections served at once at the most; beyond, a connection is answered 503 at once.
    static let maxActive = 64
    /// Refusals and failures remembered, by host, at the most: those of the last this many
    /// connections served (a request asks only about its own).
    static let remembered = 1024

    /// An address a name resolved to, ready to connect to.
    typealias Candidate = (address: NetworkAddress, storage: sockaddr_storage, length: socklen_t)

    /// Starts the guard and points this process's HTTP requests at it. Returns nil and
    /// does nothing when nothing would be refused — `rule` allows every address, or leaves
    /// it to a feed that is a file or names an inside address by number (no lookup needed
    /// to know) — or when an outbound proxy is already configured in the environment
    /// (`reason` says so: the proxy decides then).
    public static func install(rule: PrivateAddresses, feed: URL?,
                               environment: [String: String] = ProcessInfo.processInfo.environment)
        throws -> (guard: AddressGuard?, reason: String?) {
        if rule == .allowed { return (nil, nil) }
        // The feed as it is fetched: an address written as one number is the address.
        let feed = feed.map { (try? Fetcher.reachable($0)) ?? $0 }
        if rule == .automatic, let feed, feed.isFileURL || hostAndPort(feed).flatMap({ literal($0.0) })?.isInternal == true {
            return (nil, nil)
        }
        let proxies = ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
        if let set = proxies.first(where: { !(environment[$0] ?? "").isEmpty }) {
            return (nil, "an outbound proxy is set (\(set)); whether pictures may reach inside the network is left to it")
        }
        let made = try AddressGuard(rule: rule, feed: feed)
        let address = "http://\(made.credential.user):\(made.credential.secret)@127.0.0.1:\(made.port)"
        setenv("http_proxy", address, 1)
        setenv("https_proxy", address, 1)
        unsetenv("no_proxy")
        unsetenv("NO_PROXY")
        installed = made
        return (made, nil)
    }

    init(rule: PrivateAddresses, feed: URL?,
         resolver: @escaping (String, Int) -> (found: [Candidate], error: String) = AddressGuard.lookUp) throws {
        self.rule = rule
        self.feed = feed
        self.resolver = resolver
        // The feed's own host, named by the operator: its pictures may be beside it, inside
        // the network or not (under `auto`; `no` refuses inside addresses to all but the feed).
        if rule == .automatic, let place = feed.flatMap(Self.hostAndPort) {
            named.insert("\(place.0.lowercased()):\(place.1)")
        }
        credential = ("splashboard", UUID().uuidString.replacing("-", with: "").lowercased())
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw FetchError.transport("cannot open the address guard: \(String(cString: strerror(errno)))", url: "127.0.0.1") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && listen(fd, 128) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw FetchError.transport("cannot open the address guard: \(reason)", url: "127.0.0.1")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        NamedThread.start(name: "splashboard.address-guard") { [self] in acceptLoop() }
    }

    /// Runs `fetch`, the feed's own request: connections to the feed's host and port made
    /// meanwhile are the operator's choice, not the feed's, and are not checked.
    public func whileFetchingFeed<T>(_ fetch: () throws -> T) rethrows -> T {
        lock.lock(); feedRequests += 1; feedTickets += 1; lock.unlock()
        defer {
            lock.lock()
            feedRequests -= 1
            if feedRequests == 0 { feedTickets = 0 }
            lock.unlock()
        }
        return try fetch()
    }

    /// Lets every connection to `url`'s host and port through: a place the operator named
    /// in the config (the proof-of-play receiver), not one a feed named.
    public func allow(_ url: URL) {
        guard let (host, port) = Self.hostAndPort(url) else { return }
        lock.lock()
        named.insert("\(host):\(port)")
        lock.unlock()
    }

    /// Whether a connection was turned away because the guard was full since `mark`: a
    /// request that failed meanwhile may never have left.
    public func wasBusy(since mark: UInt64) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return lastBusy > mark
    }

    /// Connections being served now.
    var activeCount: Int { lock.lock(); defer { lock.unlock() }; return active }

    /// A mark to pass to `refusal` and `failure`: what happens from now on.
    public func mark() -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return served
    }

    /// Why the last connection to `host`:`port` was refused, if it was and that was after
    /// `since`: the address it led to and what kind of inside address that is.
    public func refusal(host: String, port: Int, since: UInt64 = 0) -> (address: NetworkAddress, kind: String)? {
        lock.lock()
        defer { lock.unlock() }
        guard let found = refusals["\(host.lowercased()):\(port)"], found.mark > since else { return nil }
        return (found.address, found.kind)
    }

    /// Why the last connection to `host`:`port` could not be made (the name did not resolve,
    /// the address refused or did not answer), if it could not and that was after `since`;
    /// nil when it was made or refused by the rule.
    public func failure(host: String, port: Int, since: UInt64 = 0) -> FetchError? {
        lock.lock()
        defer { lock.unlock() }
        guard let found = failures["\(host.lowercased()):\(port)"], found.mark > since else { return nil }
        return found.error
    }

    /// The `Proxy-Authorization` value this process's requests carry.
    var proxyAuthorization: String {
        "Basic " + Data("\(credential.user):\(credential.secret)".utf8).base64EncodedString()
    }

    // MARK: deciding

    /// Whether the connection is the feed's own request: the first to the feed's host and
    /// port while a feed request is in flight (it takes that request's ticket).
    func isFeedRequest(host: String, port: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard feedRequests > 0, feedTickets > 0,
              feed.flatMap(Self.hostAndPort).map({ $0 == (host.lowercased(), port) }) == true else { return false }
        feedTickets -= 1
        return true
    }

    func permits(_ address: NetworkAddress, host: String, port: Int, forFeed: Bool) -> Bool {
        guard address.isInternal else { return true }
        lock.lock()
        let isNamed = named.contains("\(host.lowercased()):\(port)")
        lock.unlock()
        if isNamed { return true }
        return rule.permits(address, forFeed: forFeed, feedIsInternal: rule == .automatic ? feedIsInside() : nil)
    }

    /// Whether the feed is inside the network, as the operator wrote it: a file is, and a
    /// host written as an inside address. A feed named by a host name is not, whatever its
    /// name resolved to (a resolver that answers "outside" once and "inside" later must not
    /// open the inside network); its own host and port stay open to it (`named`).
    func feedIsInside() -> Bool {
        guard let feed else { return false }
        if feed.isFileURL { return true }
        return Self.hostAndPort(feed).flatMap { Self.literal($0.0) }?.isInternal == true
    }

    /// The address a host written as a number stands for (`192.168.1.2`, `::1`); nil for a name.
    static func literal(_ host: String) -> NetworkAddress? {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return NetworkAddress(bytes: withUnsafeBytes(of: v4) { Array($0) }) }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 { return NetworkAddress(bytes: withUnsafeBytes(of: v6) { Array($0) }) }
        return nil
    }

    static func hostAndPort(_ url: URL) -> (String, Int)? {
        guard let host = url.host?.lowercased() else { return nil }
        return (host.trimming("[]"),
                url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80))
    }
}
