import FoundationEssentials
import SplashCore

/// The show ledger (`ledger`, a campaign named by its key in `campaign_keys`; read
/// through the `shows` view, which names it by its id), and the two outboxes it feeds: proof of play (each show's row, until
/// reported) and tracking pings (`pings`, a row per show, kind and URL).
extension CampaignStore {

    /// Commits the show, and in the same transaction its impression pings (one per
    /// tracking URL of the campaign), so there is never a ping without its show.
    public func recordShow(campaignID: Campaign.ID, at date: Date, media: MediaKind = .picture) throws {
        let showID = UUID().uuidString.lowercased()
        try db.transaction {
            try db.execute("INSERT OR IGNORE INTO campaign_keys (id) VALUES (?)", [.id(campaignID)])
            try db.execute("""
            INSERT INTO ledger (campaign, shown_at, show_id, media) VALUES ((SELECT key FROM campaign_keys WHERE id = ?), ?, ?, ?)
            """, [.id(campaignID), .date(date), .text(showID), .text(media.rawValue)])
            try addPings(.impression, campaignID: campaignID, showID: showID, at: date)
        }
    }

    /// The kinds of tracking ping.
    public enum PingKind: String {
        case impression
        case click

        var column: String { self == .impression ? "impression_urls" : "click_urls" }
    }

    /// One ping per tracking URL of `kind` of the campaign, its macros filled in; at most
    /// once per show, kind and URL.
    private func addPings(_ kind: PingKind, campaignID: Campaign.ID, showID: String, at date: Date) throws {
        let stored = try db.rows("SELECT \(kind.column) AS urls FROM campaigns WHERE id = ?", [.id(campaignID)])
        for template in Self.decodeList(try stored.first?["urls"].text) {
            let url = TrackingURL.expand(template, device: trackingDevice ?? "", campaign: campaignID.rawValue, show: showID,
                                         timestamp: date)
            // Checked again filled in, whoever wrote the template: http(s), one URL, within the length.
            guard TrackingURL.sendable(url) != nil else { continue }
            try db.execute("INSERT OR IGNORE INTO pings (show_id, kind, url, created_at) VALUES (?, ?, ?, ?)",
                           [.text(showID), .text(kind.rawValue), .text(url), .date(date)])
        }
    }

    /// Pings waiting to be sent, oldest first.
    public func waitingPings(limit: Int) throws -> [(id: Int64, url: String)] {
        let rows = try db.rows("SELECT id, url FROM pings WHERE state = \(PingState.waiting.sql) ORDER BY id LIMIT ?",
                               [.int(Int64(limit))])
        return try rows.compactMap { row in
            guard let id = try row["id"].int, let url = try row["url"].text else { return nil }
            return (id, url)
        }
    }

    /// What became of a ping: 1 sent, 2 given up, 3 on its way (a ping found on its way
    /// at the next start was cut off by a crash: it may have arrived, so it is not sent
    /// again — each at most once), 0 waiting again (it failed; it is retried).
    public enum PingState: Int64 {
        case waiting = 0
        case sent = 1
        case givenUp = 2
        case sending = 3

        /// The state written into a statement as a literal (what the partial index
        /// `pings_waiting` is matched against: a bound value is not).
        var sql: String { String(rawValue) }
    }

    /// Sets the state of the ping with row `id`.
    public func markPing(_ id: Int64, _ state: PingState) throws {
        try db.execute("UPDATE pings SET state = ? WHERE id = ?", [.int(state.rawValue), .int(id)])
    }

    /// Gives up the pings still waiting that were made before `date`, and those left on
    /// their way by a crash; returns how many.
    public func giveUpPings(before date: Date) throws -> Int {
        try db.execute("""
        UPDATE pings SET state = \(PingState.givenUp.sql)
        WHERE (state = \(PingState.waiting.sql) AND created_at < ?) OR state = \(PingState.sending.sql)
        """, [.date(date)])
        return db.changes
    }

    /// Gives up the oldest waiting pings beyond `keeping` (a tracker down for a day at a
    /// show every few seconds must not fill the disk); returns how many.
    public func dropWaitingPings(keeping: Int) throws -> Int {
        try db.execute("""
        UPDATE pings SET state = \(PingState.givenUp.sql) WHERE state = \(PingState.waiting.sql) AND id IN (
            SELECT id FROM pings WHERE state = \(PingState.waiting.sql) ORDER BY id
            LIMIT max(0, (SELECT COUNT(*) FROM pings WHERE state = \(PingState.waiting.sql)) - ?))
        """, [.int(Int64(keeping))])
        return db.changes
    }

    /// Deletes the pings that are settled (sent or given up): the outbox keeps only what
    /// waits, at most a day of it. Returns how many.
    @discardableResult
    public func prunePings() throws -> Int {
        try db.execute("DELETE FROM pings WHERE state IN (\(PingState.sent.sql), \(PingState.givenUp.sql))")
        return db.changes
    }

    /// How many pings the outbox holds, whatever their state.
    public func pingCount() throws -> Int {
        Int(try db.rows("SELECT COUNT(*) AS n FROM pings").first?["n"].int ?? 0)
    }

    /// Notes how the campaign's open show ended (a click-through queues its click pings);
    /// returns it, or nil when none was open.
    @discardableResult
    public func endShow(campaignID: Campaign.ID, by reason: SkipReason, at date: Date) throws -> ShowRecord? {
        try db.transaction {
            let open = try db.rows("SELECT MAX(id) AS id FROM shows WHERE campaign_id = ? AND ended_by IS NULL",
                                   [.id(campaignID)])
            guard let row = try open.first?["id"].int else { return nil }
            try db.execute("UPDATE ledger SET outcome = ?, ended_by = ?, ended_at = ? WHERE id = ?",
                           [.text(reason.outcome.rawValue), .text(ShowEnd.by(reason).rawValue), .date(date), .int(row)])
            let show = try showRecords(where: "id = ?", [.int(row)], limit: 1).first
            if reason == .clickThrough, let show {
                try addPings(.click, campaignID: campaignID, showID: show.showID, at: date)
            }
            return show
        }
    }

    /// Ended shows per campaign and how they ended.
    public func showCountsByEnding() throws -> [KioskMetrics.ShowCount] {
        try db.rows("""
        SELECT campaign_id, ended_by, COUNT(*) AS n FROM shows WHERE ended_by IS NOT NULL GROUP BY campaign_id, ended_by
        """).compactMap { row in
            guard let campaign = try row["campaign_id"].text, let ended = try row["ended_by"].text.flatMap(ShowEnd.init(rawValue:)),
                  let n = try row["n"].int else { return nil }
            return KioskMetrics.ShowCount(campaign: campaign, endedBy: ended, count: Int(n))
        }
    }

    /// Shows that never saw their end (the kiosk was stopped, killed or lost power during
    /// them) are marked `interrupted`, ending when they began. Called at start, before the
    /// first show; returns how many.
    @discardableResult
    public func markInterruptedShows() throws -> Int {
        try db.execute("UPDATE ledger SET ended_by = ?, ended_at = shown_at WHERE ended_by IS NULL",
                       [.text(ShowEnd.interrupted.rawValue)])
        return db.changes
    }

    /// Gives up the ended shows waiting to be reported that this version cannot read — an
    /// end or a medium no version of it writes (a newer Splashboard's word, a damaged row) —
    /// so that one such row never holds back the others; they stay in the ledger. Returns
    /// how many.
    public func giveUpUnreadableShows() throws -> Int {
        func words(_ list: [String]) -> String { list.map { "'\($0.replacing("'", with: "''"))'" }.joined(separator: ", ") }
        let ends = words(SkipReason.allCases.map { ShowEnd.by($0).rawValue } + [ShowEnd.interrupted.rawValue, ShowEnd.onScreen.rawValue])
        let media = words(MediaKind.allCases.map(\.rawValue))
        try db.execute("""
        UPDATE ledger SET reported = \(ReportState.givenUp.sql)
        WHERE reported = \(ReportState.pending.sql) AND ended_by IS NOT NULL
          AND (ended_by NOT IN (\(ends)) OR (media IS NOT NULL AND media NOT IN (\(media))))
        """)
        return db.changes
    }

    /// Ended shows not reported yet, oldest first.
    public func unreportedShows(limit: Int) throws -> [ShowRecord] {
        try showRecords(where: "reported = \(ReportState.pending.sql) AND ended_by IS NOT NULL", [], limit: limit)
    }

    /// How many ended shows wait to be reported.
    public func unreportedCount() throws -> Int {
        Int(try db.rows("SELECT COUNT(*) AS n FROM ledger WHERE reported = \(ReportState.pending.sql) AND ended_by IS NOT NULL")
            .first?["n"].int ?? 0)
    }

    /// Marks shows as reported (a receiver answered 2xx for them).
    public func markReported(_ rows: [Int64]) throws {
        guard !rows.isEmpty else { return }
        try db.transaction {
            for row in rows { try db.execute("UPDATE ledger SET reported = ? WHERE id = ?", [ReportState.sent.stored, .int(row)]) }
        }
    }

    /// Gives up the oldest unreported shows beyond `keeping` (they stay in the ledger and
    /// count as shows; they are only never sent); returns how many.
    public func dropUnreported(keeping: Int) throws -> Int {
        try db.execute("""
        UPDATE ledger SET reported = \(ReportState.givenUp.sql) WHERE id IN (
            SELECT id FROM ledger WHERE reported = \(ReportState.pending.sql) AND ended_by IS NOT NULL ORDER BY id
            LIMIT max(0, (SELECT COUNT(*) FROM ledger WHERE reported = \(ReportState.pending.sql) AND ended_by IS NOT NULL) - ?))
        """, [.int(Int64(keeping))])
        return db.changes
    }

    /// The columns `ShowRecord(shownRow:unended:)` reads.
    static let showColumns = "id, show_id, campaign_id, shown_at, ended_by, ended_at, media"

    private func showRecords(where condition: String, _ arguments: [SQLiteDatabase.Value], limit: Int) throws -> [ShowRecord] {
        try db.rows("""
        SELECT \(Self.showColumns) FROM shows WHERE \(condition) ORDER BY id LIMIT \(limit)
        """, arguments).compactMap { try ShowRecord(shownRow: $0, unended: .interrupted) }
    }

    /// When each campaign was last shown (wall clock, as recorded).
    public func showHistory() throws -> [Campaign.ID: (count: Int, last: Date?)] {
        var history: [Campaign.ID: (count: Int, last: Date?)] = [:]
        for row in try db.rows("""
        SELECT k.id AS campaign_id, h.n, h.last FROM
            (SELECT campaign, COUNT(*) AS n, MAX(shown_at) AS last FROM ledger GROUP BY campaign) h
            JOIN campaign_keys k ON k.key = h.campaign
        """) {
            if let id = try row["campaign_id"].text { history[Campaign.ID(id)] = (Int(try row["n"].int ?? 0), try row["last"].date) }
        }
        return history
    }

    /// When `entry` runs out at the rate of its latest shows (`RunOut`); nil with nothing to
    /// go by, or when they cannot be read.
    public func runOut(of entry: CatalogEntry) -> String? {
        let recent = (try? recentShows(of: entry.campaign.id, limit: RunOut.window)) ?? []
        return RunOut.estimate(remaining: entry.remaining, recent: recent)
    }

    /// The latest `limit` shows of a campaign, oldest first.
    public func recentShows(of campaignID: Campaign.ID, limit: Int) throws -> [Date] {
        try db.rows("SELECT shown_at FROM shows WHERE campaign_id = ? ORDER BY shown_at DESC LIMIT ?",
                    [.id(campaignID), .int(Int64(limit))]).compactMap { try $0["shown_at"].date }.reversed()
    }

    /// A campaign's last `limit` shows, newest first; one that has not ended yet (it is on
    /// the screen, or the kiosk stopped during it) reads "on screen" until it does.
    public func lastShows(of campaignID: Campaign.ID, limit: Int) throws -> [ShowRecord] {
        try db.rows("""
        SELECT \(Self.showColumns) FROM shows WHERE campaign_id = ? ORDER BY id DESC LIMIT ?
        """, [.id(campaignID), .int(Int64(limit))]).compactMap { try ShowRecord(shownRow: $0, unended: .onScreen) }
    }

    /// Shows recorded per campaign id.
    public func showCounts() throws -> [Campaign.ID: Int] {
        try showHistory().mapValues(\.count)
    }
}
