/// Whether pictures, poems and redirects may lead to addresses inside a network
/// (`allow-private-addresses`). A feed on the internet must not make a public screen show
/// what only the kiosk's own network can reach (an internal camera's snapshot, a cloud
/// metadata service); a feed served inside a LAN naturally names pictures there too.
public enum PrivateAddresses: String, CaseIterable, Equatable, Sendable {
    /// Allowed when the feed is a local file or written as an inside address
    /// (`http://192.168.1.5/feed.json`), refused otherwise — a feed named by a host name
    /// may reach its own host, whatever that resolves to. The default.
    case automatic
    /// Always allowed (`allow-private-addresses = yes`).
    case allowed
    /// Always refused (`allow-private-addresses = no`), except the feed's own requests.
    case refused

    /// How `allow-private-addresses` spells it: `auto`, `yes` or `no`.
    public var optionValue: String {
        switch self {
        case .automatic: return "auto"
        case .allowed: return "yes"
        case .refused: return "no"
        }
    }

    /// The rule an `allow-private-addresses` value names (`auto`, or yes/true/on/1, or
    /// no/false/off/0, in any case); nil for anything else.
    public init?(optionValue: String) {
        switch optionValue.lowercased() {
        case "auto": self = .automatic
        case "yes", "true", "on", "1": self = .allowed
        case "no", "false", "off", "0": self = .refused
        default: return nil
        }
    }

    /// Whether a connection to `destination` may be made.
    /// - Parameters:
    ///   - forFeed: the connection is the feed's own request (to the feed's host and port,
    ///     while a feed request is in flight): the operator named it.
    ///   - feedIsInternal: whether the feed is inside the network as the operator wrote it
    ///     (a file, or an inside address); nil when that is not known.
    public func permits(_ destination: NetworkAddress, forFeed: Bool, feedIsInternal: Bool?) -> Bool {
        guard destination.isInternal else { return true }
        if forFeed { return true }
        switch self {
        case .allowed: return true
        case .refused: return false
        case .automatic: return feedIsInternal == true
        }
    }
}
