import FoundationEssentials
import Glibc
import SplashCore
import SplashServices

/// Keeps a feed's pictures, poems and redirects from reaching inside the kiosk's network
/// (`allow-private-addresses`). libcurl asks it before it opens each connection
/// (`CURLOPT_OPENSOCKETFUNCTION`, in `Fetcher`), with the address it is about to connect
/// to; an address the rule refuses gets no socket. The check is on the address connected,
/// not on a name: a name that answers a public address once and 127.0.0.1 the next time
/// (DNS rebinding) is refused on the second. Whether the feed itself is inside comes from
/// what the operator wrote, never from a lookup of its own.
///
/// No port is opened and no thread runs: the guard is a rule and its record, consulted by
/// the fetcher's own requests and by nothing else on the machine.
public final class AddressGuard: @unchecked Sendable {
    /// The guard this process's requests are checked by, once installed.
    public private(set) nonisolated(unsafe) static var installed: AddressGuard?

    private let rule: PrivateAddresses
    private let feed: URL?
    private let lock = Lock()
    private var feedRequests = 0
    /// Requests that may still count as a feed request's own: one per feed request in
    /// flight, so that a ping or picture to the feed's host racing it is checked as any other.
    private var feedTickets = 0
    /// Places the operator named besides the feed (the report receiver): always reachable.
    private var named = Set<String>()
    /// The refusals of the last connections checked, by host and port, with the check's mark.
    private var refusals: [String: (address: NetworkAddress, kind: String, mark: UInt64)] = [:]
    /// Counts the connections checked: a refusal is reported only to a request that began
    /// before it (`mark`), never to a later one it has nothing to do with.
    private var checked: UInt64 = 0

    /// Refusals remembered, by host, at the most: those of the last this many connections
    /// checked (a request asks only about its own).
    static let remembered = 1024

    /// Starts the guard for this process's requests. Returns nil and does nothing when
    /// nothing would be refused — `rule` allows every address, or leaves it to a feed that is
    /// a file or names an inside address by number (no lookup needed to know) — or when an
    /// outbound proxy is configured in the environment (`reason` says so: the proxy decides
    /// then, since every connection is to it).
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
        let made = AddressGuard(rule: rule, feed: feed)
        installed = made
        return (made, nil)
    }

    init(rule: PrivateAddresses, feed: URL?) {
        self.rule = rule
        self.feed = feed
        // The feed's own host, named by the operator: its pictures may be beside it, inside
        // the network or not (under `auto`; `no` refuses inside addresses to all but the feed).
        if rule == .automatic, let place = feed.flatMap(Self.hostAndPort) {
            named.insert("\(place.0.lowercased()):\(place.1)")
        }
    }

    /// Runs `fetch`, the feed's own request: a request to the feed's host and port made
    /// meanwhile is the operator's choice, not the feed's, and is not checked.
    public func whileFetchingFeed<T>(_ fetch: () throws -> T) rethrows -> T {
        lock.withLock {
            feedRequests += 1
            feedTickets += 1
        }
        defer {
            lock.withLock {
                feedRequests -= 1
                if feedRequests == 0 { feedTickets = 0 }
            }
        }
        return try fetch()
    }

    /// Lets every connection to `url`'s host and port through: a place the operator named
    /// in the config (the proof-of-play receiver), not one a feed named.
    public func allow(_ url: URL) {
        guard let (host, port) = Self.hostAndPort(url) else { return }
        lock.withLock { _ = named.insert("\(host):\(port)") }
    }

    /// A mark to pass to `refusal`: what happens from now on.
    public func mark() -> UInt64 { lock.withLock { checked } }

    /// Why the last connection to `host`:`port` was refused, if it was and that was after
    /// `since`: the address it led to and what kind of inside address that is.
    public func refusal(host: String, port: Int, since: UInt64 = 0) -> (address: NetworkAddress, kind: String)? {
        lock.withLock {
            guard let found = refusals["\(host.lowercased()):\(port)"], found.mark > since else { return nil }
            return (found.address, found.kind)
        }
    }

    // MARK: deciding

    /// Whether the request to `host`:`port` about to connect is the feed's own request:
    /// the first to the feed's host and port while a feed request is in flight (it takes
    /// that request's ticket). Asked once per request, whatever addresses it then tries.
    public func takesFeedTicket(host: String, port: Int) -> Bool {
        lock.withLock {
            guard feedRequests > 0, feedTickets > 0, isFeedPlace(host: host, port: port) else { return false }
            feedTickets -= 1
            return true
        }
    }

    /// Whether `host`:`port` is where the feed is: its connections are never kept for
    /// another request, so none opened for the feed is used by a request the rule refuses.
    public func isFeedPlace(host: String, port: Int) -> Bool {
        feed.flatMap(Self.hostAndPort).map { $0 == (host.lowercased(), port) } == true
    }

    /// Whether a connection to `address`, for a request to `host`:`port` (the feed's own
    /// when `forFeed`) that began at `since` (a `mark`), may be opened. A refusal is kept for
    /// `refusal(host:port:since:)`: the request's first, when it tries several addresses.
    public func admits(_ address: NetworkAddress, host: String, port: Int, forFeed: Bool, since: UInt64) -> Bool {
        let allowed = permits(address, host: host, port: port, forFeed: forFeed)
        lock.withLock {
            checked += 1
            let key = "\(host.lowercased()):\(port)"
            if allowed {
                refusals[key] = nil
            } else if (refusals[key]?.mark ?? 0) <= since {
                refusals[key] = (address, address.internalKind ?? "inside", checked)
            }
            // What no request still waiting can ask about goes: a feed naming ever more hosts
            // does not grow this without end.
            if refusals.count > Self.remembered, checked > UInt64(Self.remembered) {
                let horizon = checked - UInt64(Self.remembered)
                refusals = refusals.filter { $0.value.mark > horizon }
            }
        }
        return allowed
    }

    func permits(_ address: NetworkAddress, host: String, port: Int, forFeed: Bool) -> Bool {
        guard address.isInternal else { return true }
        if lock.withLock({ named.contains("\(host.lowercased()):\(port)") }) { return true }
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

    /// The address a socket address holds (IPv4 or IPv6), or nil for another family.
    public static func address(of socket: UnsafePointer<sockaddr>) -> NetworkAddress? {
        switch Int32(socket.pointee.sa_family) {
        case AF_INET:
            return socket.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                NetworkAddress(bytes: withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) })
            }
        case AF_INET6:
            return socket.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                NetworkAddress(bytes: withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) })
            }
        default:
            return nil
        }
    }

    static func hostAndPort(_ url: URL) -> (String, Int)? {
        guard let host = url.host?.lowercased() else { return nil }
        return (host.trimming("[]"),
                url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80))
    }
}
