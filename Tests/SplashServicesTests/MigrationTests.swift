import Foundation
import SplashCore
@testable import SplashStorage
import SplashTestSupport
import Testing

/// The schema's migrations: registered in order, each named, and a database left at any
/// schema before (an older Splashboard's) migrated to the very one a new database gets.
@Suite struct MigrationTests {
    @Test func migrationsAreNumberedFromOneWithoutAGapAndNamed() {
        #expect(CampaignStore.migrations.map(\.version) == Array(1...CampaignStore.schemaVersion))
        #expect(Set(CampaignStore.migrations.map(\.name)).count == CampaignStore.migrations.count)
        #expect(CampaignStore.migrations.allSatisfy { !$0.name.isEmpty })
    }

    /// Every table, index and view, with the statement that makes it as SQLite keeps it.
    func schema(_ db: SQLiteDatabase) throws -> [String] {
        try db.query("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name")
            .map { row in row.map { $0.text ?? "" }.joined(separator: " | ") }
    }

    /// A new database against the schema kept as text: an old migration edited in place
    /// (every database made since differs from those migrated before) fails here.
    @Test func aNewDatabaseHasTheSchemaWrittenDown() throws {
        let made = try schema(CampaignStore(dataDir: try temporaryFolder()).db)
        let listing = made.map { "        \($0.debugDescription)," }.joined(separator: "\n")
        if CampaignStore.schemaVersion == StoredSchema.version {
            #expect(made == StoredSchema.entries, """
                schema \(StoredSchema.version) is not what Tests/SplashServicesTests/StoredSchema.swift lists: a migration \
                was changed in place (a new one is needed) or the list is out of date; a new database has:
                \(listing)
                """)
        } else {
            Issue.record("""
                a migration was added (schema \(CampaignStore.schemaVersion)): Tests/SplashServicesTests/StoredSchema.swift \
                takes its version and the schema it leaves:
                \(listing)
                """)
        }
    }

    @Test func aDatabaseMigratedFromEverySchemaIsTheOneMadeFresh() throws {
        let folder = try temporaryFolder()
        let fresh = try schema(CampaignStore(dataDir: folder + "/fresh").db)
        #expect(fresh.contains { $0.hasPrefix("table | cached_files |") })
        for from in 1..<CampaignStore.schemaVersion {
            let dir = folder + "/from-\(from)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            do {
                // What an older Splashboard left: its schema, and a show in its ledger.
                let old = try SQLiteDatabase(path: dir + "/" + CampaignStore.fileName)
                for step in CampaignStore.migrations.prefix(from) { try step.apply(old) }
                try old.execute("PRAGMA user_version = \(from)")
                if from < 10 {
                    try old.execute("INSERT INTO shows (campaign_id, shown_at) VALUES ('a', 1790000000)")
                } else {
                    // From schema 10 the ledger names a campaign by its key (`shows` is a view).
                    try old.execute("""
                    INSERT INTO campaign_keys (id) VALUES ('a');
                    INSERT INTO ledger (campaign, shown_at) SELECT key, 1790000000 FROM campaign_keys WHERE id = 'a';
                    """)
                }
            }
            let store = try CampaignStore(dataDir: dir)
            #expect(try store.db.userVersion == CampaignStore.schemaVersion)
            #expect(try schema(store.db) == fresh, "migrated from schema \(from)")
            #expect(try store.showCounts()["a"] == 1, "the show kept from schema \(from)")
        }
    }
}
