import FoundationEssentials
import SplashCore

/// What the server said of each cached picture and clip when it came, by cache key: read
/// at a sync to revalidate them, written only when one was fetched (a "not modified"
/// answer writes nothing).
extension CampaignStore {
    /// The validators kept for the cached files with `keys` (those with none are left out).
    public func validators(forKeys keys: [String]) throws -> [String: FileValidators] {
        guard !keys.isEmpty else { return [:] }
        var found: [String: FileValidators] = [:]
        // In slices, well under SQLite's limit of bound values.
        for start in stride(from: 0, to: keys.count, by: 500) {
            let slice = Array(keys[start..<min(start + 500, keys.count)])
            let marks = Array(repeating: "?", count: slice.count).joined(separator: ",")
            for row in try db.rows("""
                SELECT key, etag, last_modified, max_age, no_cache, fetched_at FROM cached_files WHERE key IN (\(marks))
                """, slice.map { .text($0) }) {
                guard let key = try row["key"].text, let fetched = try row["fetched_at"].date else { continue }
                found[key] = FileValidators(etag: try row["etag"].text, lastModified: try row["last_modified"].text,
                                            maxAge: try row["max_age"].real, noCache: (try row["no_cache"].int ?? 0) != 0,
                                            fetchedAt: fetched)
            }
        }
        return found
    }

    /// Keeps the validators of files just fetched, and forgets those of files no longer
    /// cached (`isCached` says whether a key's file is in the cache now), in one transaction.
    public func noteValidators(_ fetched: [String: FileValidators], isCached: (String) -> Bool) throws {
        try db.transaction {
            for (key, v) in fetched {
                try db.execute("""
                    INSERT OR REPLACE INTO cached_files (key, etag, last_modified, max_age, no_cache, fetched_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """, [.text(key), .optional(v.etag), .optional(v.lastModified), v.maxAge.map { .real($0) } ?? .null,
                          .int(v.noCache ? 1 : 0), .real(v.fetchedAt.timeIntervalSince1970)])
            }
            let kept = try db.query("SELECT key FROM cached_files").compactMap { $0.first?.text }
            for key in kept where fetched[key] == nil && !isCached(key) {
                try db.execute("DELETE FROM cached_files WHERE key = ?", [.text(key)])
            }
        }
    }
}
