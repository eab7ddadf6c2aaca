import FoundationEssentials
import SplashCore
import SplashServices

/// The device's stored state as the commands and both processes open it: the database,
/// the image cache and the feed it syncs from.
public struct DeviceStorage {
    /// The database in the data folder, or in memory when `storeProblem` says why.
    public let store: CampaignStore
    /// The image cache in the cache folder.
    public let cache: ImageCache
    /// The feed synced from: `--feed`, else the bundled demo feed.
    public let feed: URL
    /// The options it was opened with (folders, feed, device id).
    public let options: KioskOptions
    /// Why the database could not be opened, when the store lives in memory instead.
    public let storeProblem: String?

    /// Opens the data and cache folders (creating them), removing the temporary files a
    /// crash left behind (never those of a network process still writing them).
    /// With `orInMemory`, a data folder that cannot be written is not an error: the store
    /// lives in memory until the process is restarted, and `writeProblems` says why (the
    /// kiosk shows what it can).
    public init(options: KioskOptions, assets: Assets?, orInMemory: Bool = false) throws {
        self.options = options
        do {
            store = try CampaignStore(dataDir: options.dataDir)
            storeProblem = nil
        } catch let error as StoreError where orInMemory && error.kind == .readOnly {
            // Only a folder or file this user cannot write: a full disk, a lock or a damaged
            // file stops the process as before, and systemd tries again.
            store = try CampaignStore(inMemoryBeside: options.dataDir)
            storeProblem = error.explained
        }
        do {
            cache = try ImageCache(folder: options.cacheDir)
        } catch {
            throw DeviceStorageError.cacheFolder(path: options.cacheDir, reason: error.explained)
        }
        cache.removeLeftovers()
        guard let feed = options.feed ?? assets?.demoFeed else {
            throw DeviceStorageError.noFeed
        }
        self.feed = feed
        store.device = DeviceGroups(names: options.deviceGroups, deviceID: deviceID)
    }

    /// The start-up self-check: the data and cache folders exist and this user can write
    /// them (and the database's files) — the cache only read, where a network process of
    /// its own writes it (`network-socket`, the service) —; one line for each that cannot,
    /// saying whose it is and how to fix it. The kiosk still shows what it can.
    public var writeProblems: [String] {
        var problems: [String] = []
        // Where the network process is a user of its own, feed-confirmed is its file alone.
        let files = options.networkSocket != nil ? FolderAccess.databaseFiles.filter { $0 != "feed-confirmed" }
            : FolderAccess.databaseFiles
        if let data = FolderAccess.problem(options.dataDir, role: "data", files: files) {
            problems.append(data + (storeProblem == nil ? "; shows are not counted until then" : restart))
        } else if let storeProblem {
            problems.append(storeProblem + restart)
        }
        if options.networkSocket != nil {
            // The service's shape: the network process (a user of its own) writes the cache,
            // the display only reads it.
            if let cache = FolderAccess.unreadableFolder(options.cacheDir, role: "cache") {
                problems.append(cache + "; cached pictures cannot be shown until then")
            }
        } else if let cache = FolderAccess.problem(options.cacheDir, role: "cache") {
            problems.append(cache + "; new pictures cannot be cached until then")
        }
        return problems
    }

    /// What a kiosk running on a store in memory needs once its folder is fixed: the
    /// service's restart command where it runs as the service (`network-socket`), else
    /// only that it must be restarted.
    var restart: String {
        "; shows are not counted until that is done and the kiosk restarted"
            + (options.networkSocket != nil ? " (sudo systemctl restart splashboard splashboard-net)" : "")
    }

    /// Who this kiosk is to its fleet: `device-id`, else derived from /etc/machine-id; nil
    /// when there is neither (a container without a machine id).
    public var deviceID: String? {
        if let given = options.deviceID { return given }
        guard let machine = try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8) else { return nil }
        return DeviceIdentity.applicationSpecific(machineID: machine)
    }
}
