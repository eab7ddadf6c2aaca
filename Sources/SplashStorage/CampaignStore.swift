import Glibc
import CSQLite
import FoundationEssentials
import SplashCore

/// The device's memory: campaigns from the last good feed, the show ledger, the feed's
/// sync state and the poetry entry, in `splashboard.db` in the data folder.
///
/// Every logical change is one transaction. A show is committed (WAL, synchronous=FULL)
/// before `recordShow` returns, which is before the frame that shows it is presented.
///
/// One type per database, its parts in files of their own: the migrations
/// (`+Migrations`), the feed's state (`+FeedState`), applying a feed (`+Apply`), the stored
/// campaigns and the catalog (`+Catalog`), the cache's cap (`+Eviction`), the poem
/// (`+Poetry`), and the ledger with its outboxes (`+Ledger`).
public final class CampaignStore: ShowLedger {
    /// The database's file name in the data folder.
    public static let fileName = "splashboard.db"
    /// The schema this build writes; older files are migrated forward at open.
    public static var schemaVersion: Int { migrations.last?.version ?? 0 }

    /// The open database the store's parts read and write.
    public let db: SQLiteDatabase
    /// When the feed was last confirmed (a 304 counts), beside the database.
    let confirmation: FeedConfirmation
    /// The device id the tracking URLs' `{device}` is filled with (`device-id`).
    public var trackingDevice: String?
    /// The groups this device is in: only campaigns for it have their pictures and clips
    /// fetched and kept. Nil: every campaign's.
    public var device: DeviceGroups?

    /// The SQL condition (on `campaigns`) that a campaign is for this device, and its values.
    var forThisDevice: (sql: String, values: [SQLiteDatabase.Value]) {
        guard let device, !device.isEverywhere else { return ("1", []) }
        let mine = device.memberships
        guard !mine.isEmpty else { return ("campaigns.groups IS NULL", []) }
        return ("(campaigns.groups IS NULL OR EXISTS (SELECT 1 FROM json_each(campaigns.groups) WHERE json_each.value IN ("
                + Array(repeating: "?", count: mine.count).joined(separator: ", ") + ")))", mine.map { .text($0) })
    }

    /// In a data folder shared with a group (the package's 2770, where the display and the
    /// network process are different users), the database's files must be the group's to
    /// write: SQLite makes them 0644 less the umask, so the database is made here first,
    /// 0666 less the umask, and a file of this user's without group write gets it (the
    /// WAL and shared-memory files take the database's mode when SQLite makes them).
    static func shareFiles(in dataDir: String) {
        var folder = stat()
        guard stat(dataDir, &folder) == 0, folder.st_mode & S_IWGRP != 0 else { return }
        for name in [fileName, fileName + "-wal", fileName + "-shm"] {
            let path = dataDir + "/" + name
            if name == fileName, access(path, F_OK) != 0 {
                let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0o666)
                if fd >= 0 { close(fd) }
            }
            var st = stat()
            if lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_uid == geteuid(), st.st_mode & S_IWGRP == 0 {
                chmod(path, (st.st_mode & 0o7777) | 0o060)
            }
        }
    }

    /// Opens the database in `dataDir`, creating the folder and file when needed, and
    /// migrates it to `schemaVersion`.
    public init(dataDir: String) throws {
        Self.shareFiles(in: dataDir)
        do {
            try FileManager.default.createDirectory(atPath: dataDir, withIntermediateDirectories: true)
        } catch {
            throw StoreError(path: dataDir, message: "cannot create the data folder: \(error.explained)",
                             code: SQLITE_CANTOPEN)
        }
        db = try SQLiteDatabase(path: dataDir + "/" + Self.fileName)
        confirmation = FeedConfirmation(dataDir: dataDir)
        try migrate()
    }

    /// A store that lives in memory only: what the kiosk runs on when its data folder
    /// cannot be written, so that the screen still shows the default picture and says why
    /// (nothing is counted, nothing is kept).
    public init(inMemoryBeside dataDir: String) throws {
        db = try SQLiteDatabase(path: ":memory:")
        confirmation = FeedConfirmation(dataDir: dataDir)
        try migrate()
    }
}
