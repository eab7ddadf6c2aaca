import FoundationEssentials

/// The catalog's own rules, a feature of its own like `ScreenPowerRules`: it changes only
/// the `CatalogState` it is handed — a catalog read elsewhere taken without lowering a
/// count, a picture that would not open or decode marked, each failure said once — and
/// says what came of it; the root (`Kiosk+Catalog`) chooses the splash again, asks for a
/// sync and takes the feed's screen schedule.
enum CatalogRules {
    /// Takes a catalog read elsewhere (a sync on another thread). Its show counts may
    /// predate shows this loop has recorded since, so a count never goes down: the ledger
    /// only grows, and the larger number is the newer one.
    static func replace(_ catalog: inout CatalogState, with entries: [CatalogEntry], message: String?) {
        let known = Dictionary(catalog.entries.map { ($0.campaign.id, $0) }, uniquingKeysWith: { a, b in a.shows >= b.shows ? a : b })
        catalog.entries = entries.map { entry in
            var entry = entry
            // A catalog read on another thread may be older than the shows recorded since:
            // counts and recent shows are never lowered, and the run's monotonic time is kept.
            guard let old = known[entry.campaign.id] else { return entry }
            if old.shows > entry.shows {
                entry.shows = old.shows
                entry.recentShows = old.recentShows
                entry.lastShownAt = old.lastShownAt
            }
            entry.lastShownUptime = old.lastShownUptime
            return entry
        }
        catalog.feedMessage = message
        if let newest = entries.compactMap(\.campaign.updatedAt).max() {
            catalog.newestUpdatedAt = max(catalog.newestUpdatedAt ?? newest, newest)
        }
    }

    /// Takes the catalog another writer left in the database; whether a campaign whose
    /// picture was cached has lost it since (`cache clear`, a hand in the folder): it is
    /// then to be fetched again at once.
    static func changed(_ catalog: inout CatalogState, to entries: [CatalogEntry], message: String?) -> Bool {
        let hadPicture = Set(catalog.entries.filter { $0.imagePath != nil }.map(\.campaign.id))
        replace(&catalog, with: entries, message: message)
        return catalog.entries.contains {
            guard hadPicture.contains($0.campaign.id), case .waiting = $0.picture else { return false }
            return true
        }
    }

    /// The picture at `path` did not open (`gone`) or decode on its splash: its campaigns
    /// wait for it (gone: to be fetched again) or refuse it (broken); a picture for
    /// portrait screens is left out, its campaign's own shown instead. The message to say,
    /// the first time only.
    static func unusable(_ catalog: inout CatalogState, path: String, _ trouble: PictureTrouble) -> String? {
        let gone = trouble == .gone
        let reason = trouble.reason
        var message: String?
        if catalog.failedImages.insert(path).inserted {
            let portraitOnly = catalog.entries.contains { $0.portraitPath == path }
                && !catalog.entries.contains { $0.imagePath == path }
            let next = portraitOnly ? "no show counted; its campaign's picture is shown instead" + (gone ? ", and it is fetched again" : "")
                : gone ? "no show counted; it is fetched again" : "no show counted; the campaign is not shown"
            message = "cannot show image \(path): \(reason); \(next)"
        }
        leaveOut(&catalog, path, for: gone ? .waiting(CatalogEntry.notCached) : .refused(reason, path: path))
        return message
    }

    /// A picture failed to show (`imageFailed`): said once per picture, and — when it
    /// failed on its splash — refused (a picture for portrait screens left out). The
    /// message to say, the first time only.
    static func failed(_ catalog: inout CatalogState, path: String, reason: String, onSplash: Bool) -> String? {
        let message: String? = catalog.failedImages.insert(path).inserted ? "cannot show image \(path): \(reason)" : nil
        if onSplash { leaveOut(&catalog, path, for: .refused(reason, path: path)) }
        return message
    }

    /// The picture at `path` is no longer shown: a campaign's picture for portrait screens
    /// is left out (its own picture shown instead), and a campaign whose picture it is
    /// takes `state`.
    private static func leaveOut(_ catalog: inout CatalogState, _ path: String, for state: PictureState) {
        for i in catalog.entries.indices {
            if catalog.entries[i].portraitPath == path { catalog.entries[i].portraitPath = nil }
            if catalog.entries[i].imagePath == path { catalog.entries[i].picture = state }
        }
    }
}
