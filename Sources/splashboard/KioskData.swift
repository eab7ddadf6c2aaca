import Foundation
import SplashCore
import SplashServices

/// The device's stored state as the commands open it: the database, the image cache and
/// the feed it syncs from.
struct KioskData {
    let store: CampaignStore
    let cache: ImageCache
    let feed: URL
    let options: KioskOptions

    /// Opens the data and cache folders (creating them), removing leftover temporary files.
    init(options: KioskOptions, assets: Assets?) throws {
        self.options = options
        store = try CampaignStore(dataDir: options.dataDir)
        do {
            cache = try ImageCache(folder: options.cacheDir)
        } catch {
            throw CacheError.io(options.cacheDir, "cannot create the cache folder: \(error.localizedDescription)")
        }
        cache.removeLeftovers()
        guard let feed = options.feed ?? assets?.demoFeed else {
            throw CacheError.io("feed", "no --feed given and the bundled demo feed was not found")
        }
        self.feed = feed
    }

    /// Puts this process's requests behind the address guard (`allow-private-addresses`);
    /// returns a note for the log when it is not (a proxy decides, or it could not start).
    func guardAddresses() -> String? {
        do {
            return try AddressGuard.install(rule: options.privateAddresses, feed: feed).reason
        } catch {
            return "the address guard did not start (\(error.localizedDescription)); pictures are fetched unchecked"
        }
    }

    /// Who this kiosk is to its fleet: `device-id`, else derived from /etc/machine-id; nil
    /// when there is neither (a container without a machine id).
    var deviceID: String? {
        if let given = options.deviceID { return given }
        guard let machine = try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8) else { return nil }
        return DeviceIdentity.applicationSpecific(machineID: machine)
    }

    func makeSync() -> FeedSync {
        FeedSync(store: store, cache: cache, cacheMaxBytes: options.cacheMaxMB << 20)
    }
}
