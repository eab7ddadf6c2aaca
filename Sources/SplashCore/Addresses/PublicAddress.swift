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

extension URL {
    /// The address as it is written to disk to tell one feed from another (the feed's row
    /// in the database, the note of its last confirmation): its public form, and where that
    /// left a user, a password or a query out, a fingerprint of the whole address in its
    /// place (`https://host/feed.json#k-3f2a…`). No secret is written, and two addresses
    /// that differ only in their secrets stay two. Reading it back gives the same name.
    public var storedName: String {
        let shown = publicAddress
        guard user != nil || password != nil || query != nil else { return absoluteString }
        return "\(shown)#k-\(SHA256.hex(absoluteString).prefix(16))"
    }
}
