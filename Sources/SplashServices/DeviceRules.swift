import FoundationEssentials
import Glibc
import SplashCore

/// The campaign rules as this device applies them outside the kiosk's own loop (the
/// commands, the network process's eviction and sync summary): its time zone, and whether
/// its clock can be trusted — the same answer the running kiosk comes to.
public enum DeviceRules {
    /// What systemd-timesyncd says of the clock: it runs here when its runtime folder exists
    /// (`$SPLASHBOARD_TIMESYNC_DIR` stands for it in tests), and has set the clock when its
    /// `synchronized` flag is there.
    public static func timeSync(environment: [String: String]) -> TimeSync {
        let folder = environment["SPLASHBOARD_TIMESYNC_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/run/systemd/timesync"
        guard access(folder, F_OK) == 0 else { return .absent }
        return access(folder + "/synchronized", F_OK) == 0 ? .synchronized : .waiting
    }

    /// The rules' context at `now` for `catalog`: the device's zone, the clock's trust.
    public static func context(at now: Date, catalog: [CatalogEntry], environment: [String: String],
                               pick: PickRule = .newest, device: DeviceGroups? = nil) -> RuleContext {
        let trusted = ClockTrust.isTrusted(now, timeSync: timeSync(environment: environment),
                                           newestUpdatedAt: catalog.compactMap(\.campaign.updatedAt).max())
        return RuleContext(clockTrusted: trusted, deviceTimeZone: .current, pick: pick, device: device)
    }
}
