import FoundationEssentials
import SplashCore

/// One sync's own, made anew at its start: its time, what an unchanged feed is answered
/// with (read beside the request), the feed that came, and the addresses of the files it
/// found changed and replaced.
struct SyncRun {
    var budget = SyncBudget(from: 0, seconds: .infinity)
    /// The stored campaigns and the pictures still missing, as they were when the feed was
    /// asked for.
    var standing: (campaigns: Int, missing: [(key: String, url: URL)]) = (0, [])
    /// The feed's bytes, its validators and its content's fingerprint, when it came.
    var feed: (data: Data, etag: String?, lastModified: String?, contentHash: String)?
    var replaced: [String] = []
}
