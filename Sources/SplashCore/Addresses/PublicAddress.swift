import FoundationEssentials

extension URL {
    /// The address as it may be shown where anyone can read it (the operator view on the
    /// public screen): scheme, host, port and path only. A token in the query, the
    /// fragment or the user part (`https://user:secret@host/feed.json?key=…`) is left out.
    public var publicAddress: String {
        guard let scheme, var parts = URLComponents(url: self, resolvingAgainstBaseURL: true) else {
            return absoluteString
        }
        parts.user = nil
        parts.password = nil
        parts.query = nil
        parts.fragment = nil
        parts.scheme = scheme
        return parts.string ?? absoluteString
    }
}
