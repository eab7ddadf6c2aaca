import FoundationEssentials
import SplashCore

/// Notices when something other than its own connection committed a change to the
/// database — the network process's sync, a hand-run `splashboard sync`, `cache clear`,
/// another tool — with SQLite's `PRAGMA data_version`, which this connection's own writes
/// (the ledger) do not move. Cheap enough to look at every wake of the loop.
public final class CatalogWatch {
    private let store: CampaignStore
    private var version: Int64?

    /// Watches the database of `store`, from now on.
    public init(store: CampaignStore) {
        self.store = store
        version = current()
    }

    /// Whether another connection has committed a change since the last look (or since
    /// the watch began). A database that cannot be read counts as unchanged.
    public func changed() -> Bool {
        guard let now = current() else { return false }
        defer { version = now }
        return version != nil && now != version
    }

    private func current() -> Int64? {
        guard case .int(let n)? = try? store.db.query("PRAGMA data_version").first?.first else { return nil }
        return n
    }
}
