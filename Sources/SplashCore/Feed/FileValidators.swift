import FoundationEssentials

/// What a server said of a cached picture or clip when it was fetched: the validators a
/// conditional request sends back (`ETag`, `Last-Modified`; for a `file://` one, its
/// modification time and size) and how long it may be kept without asking
/// (`Cache-Control: max-age`, `no-cache`). Decides when the file is asked for again.
public struct FileValidators: Equatable, Sendable {
    /// The `ETag` it came with.
    public var etag: String?
    /// Its `Last-Modified` (for a local file: modification time and size).
    public var lastModified: String?
    /// Seconds it stays fresh (`Cache-Control: max-age`); nil when the server did not say.
    public var maxAge: TimeInterval?
    /// Whether the server asks for it to be checked at every use (`no-cache`, `no-store`).
    public var noCache: Bool
    /// When it was fetched.
    public var fetchedAt: Date

    /// Validators as a server gave them.
    public init(etag: String?, lastModified: String?, maxAge: TimeInterval? = nil, noCache: Bool = false, fetchedAt: Date) {
        self.etag = etag
        self.lastModified = lastModified
        self.maxAge = maxAge
        self.noCache = noCache
        self.fetchedAt = fetchedAt
    }

    /// Validators from an answer's headers: its `Cache-Control` read for `max-age` (or
    /// `s-maxage`, the shared caches' own) and `no-cache`/`no-store`.
    public init(etag: String?, lastModified: String?, cacheControl: String?, fetchedAt: Date) {
        var maxAge: TimeInterval?
        var noCache = false
        for directive in (cacheControl ?? "").split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map {
                $0.trimmedSpaces.trimming("\"")
            }
            guard let name = parts.first?.lowercased() else { continue }
            switch name {
            case "no-cache", "no-store": noCache = true
            case "max-age", "s-maxage":
                if parts.count == 2, let seconds = Int(parts[1]), seconds >= 0 { maxAge = TimeInterval(seconds) }
            default: break
            }
        }
        self.init(etag: etag, lastModified: lastModified, maxAge: maxAge, noCache: noCache, fetchedAt: fetchedAt)
    }

    /// Whether a conditional request can be made (the server gave a validator).
    public var canAsk: Bool { etag != nil || lastModified != nil }

    /// Whether a cached file with `validators` (nil: cached before they were kept) is asked
    /// for again at a sync at `now`. A sync run by hand asks for every one; so does a server's
    /// `no-cache`. Otherwise a server's `max-age` decides alone (a file is not asked for
    /// while it is fresh, and is once it is not); without one, a file is asked for when the
    /// feed changed or `every` seconds after it was last fetched or found unchanged
    /// (`lastChecked`, kept in memory: a 304 writes nothing).
    public static func isDue(_ validators: FileValidators?, lastChecked: Date?, now: Date, every: TimeInterval,
                             feedChanged: Bool, byHand: Bool) -> Bool {
        if byHand { return true }
        let since = max(validators?.fetchedAt ?? .distantPast, lastChecked ?? .distantPast)
        let age = now.timeIntervalSince(since)
        if let validators {
            if validators.noCache { return true }
            if let maxAge = validators.maxAge { return age >= maxAge || age < 0 }
        }
        // A clock set back (age below zero) is no reason to trust the file longer.
        return feedChanged || age >= every || age < 0
    }
}
