import CSQLite
import FoundationEssentials
import SplashCore
import SplashServices

/// The picture cache kept within its cap.
extension CampaignStore {
    /// Trims the picture cache to `capBytes`, least recently used first, never removing a
    /// picture that must stay: an eligible campaign's, or the kept poem's. What must stay is
    /// read in the same write transaction as the eviction, so no other writer (a sync in the
    /// other process, another command) can make a picture needed in between; when it cannot
    /// be read, this throws and nothing is removed. `wanted` keeps more (the pictures of a
    /// feed being applied). Returns the keys removed.
    @discardableResult
    public func evict(_ cache: ImageCache, toFit capBytes: Int, now: Date, alsoKeeping wanted: Set<String> = [],
                      environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [String] {
        guard cache.usage() > capBytes else { return [] }
        return try db.transaction {
            let all = try catalog(cache: cache)
            // Eligible as the kiosk would judge it: this device's zone, its clock's trust.
            let context = DeviceRules.context(at: now, catalog: all, environment: environment, device: device)
            // A campaign's clip and its picture for portrait screens stay with its picture.
            let eligible = all.filter { $0.isEligible(at: now, context: context) }
                .flatMap { [$0.imagePath, $0.video?.path, $0.portraitPath].compactMap { $0.map { URL(fileURLWithPath: $0).lastPathComponent } } }
            var keep = wanted.union(eligible)
            let poem = try db.query("SELECT image_path FROM poetry WHERE slot = 1").first?.first?.text
            if let poem, poem.hasPrefix(cache.folder + "/") { keep.insert(URL(fileURLWithPath: poem).lastPathComponent) }
            // When each picture was last shown, from the ledger: the display may not be able to
            // touch the files it shows (the service's cache is the network process's).
            var shown: [String: Date] = [:]
            for row in try db.rows("""
            SELECT c.image_key, MAX(l.shown_at) AS last FROM campaigns c
            JOIN campaign_keys k ON k.id = c.id JOIN ledger l ON l.campaign = k.key
            WHERE c.image_key IS NOT NULL GROUP BY c.image_key
            """) {
                if let key = try row["image_key"].text, let last = try row["last"].date { shown[key] = last }
            }
            return cache.evict(toFit: capBytes, protecting: keep, shown: shown)
        }
    }
}
