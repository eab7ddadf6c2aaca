/// Whether pictures, poems and redirects may lead to addresses inside a network
/// (`allow-private-addresses`). A feed on the internet must not make a public screen show
/// what only the kiosk's own network can reach (an internal camera's snapshot, a cloud
/// metadata service); a feed served inside a LAN naturally names pictures there too.
public enum PrivateAddresses: String, CaseIterable, Equatable, Sendable {
    /// Allowed when the feed itself is inside the network (or a local file), refused when
    /// it comes from the internet. The default.
    case automatic
    /// Always allowed (`allow-private-addresses = yes`).
    case allowed
    /// Always refused (`allow-private-addresses = no`), except the feed's own requests.
    case refused

    /// Whether a connection to `destination` may be made.
    /// - Parameters:
    ///   - forFeed: the connection is the feed's own request (to the feed's host and port,
    ///     while a feed request is in flight): the operator named it.
    ///   - feedIsInternal: whether the feed is inside the network (a file, or its host
    ///     resolves to inside addresses only); nil when that is not known (not resolvable).
    public func permits(_ destination: NetworkAddress, forFeed: Bool, feedIsInternal: Bool?) -> Bool {
        guard destination.isInternal else { return true }
        if forFeed { return true }
        switch self {
        case .allowed: return true
        case .refused: return false
        case .automatic: return feedIsInternal == true
        }
    }

    /// Whether a feed whose host resolved to `addresses` counts as inside the network: all
    /// of them are (a name that also leads to the internet is treated as public).
    public static func isInternal(feedAddresses addresses: [NetworkAddress]) -> Bool? {
        addresses.isEmpty ? nil : addresses.allSatisfy(\.isInternal)
    }
}
