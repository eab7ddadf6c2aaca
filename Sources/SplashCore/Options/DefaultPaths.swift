/// Where data and cache live when no option says: the folders systemd hands the service
/// (`STATE_DIRECTORY`, `CACHE_DIRECTORY`, i.e. /var/lib/splashboard and
/// /var/cache/splashboard) — also for the service's users in a shell
/// (`sudo -u splashboard splashboard campaigns`) and for root where the package is
/// installed (`sudo splashboard sync`) — otherwise the XDG state and cache folders of
/// the user.
public struct DefaultPaths: Equatable, Sendable {
    /// Where the campaign database and other state go: `STATE_DIRECTORY`, else the
    /// service's /var/lib/splashboard, else `$XDG_STATE_HOME/splashboard` (~/.local/state
    /// by default).
    public var dataDir: String
    /// Where the cached pictures go: `CACHE_DIRECTORY`, else the service's
    /// /var/cache/splashboard, else `$XDG_CACHE_HOME/splashboard` (~/.cache by default).
    public var cacheDir: String
    /// Where the running kiosk keeps its control socket (`status`, `screenshot`):
    /// `RUNTIME_DIRECTORY` (the service's /run/splashboard; also for the `splashboard`
    /// user in a shell), else `$XDG_RUNTIME_DIR/splashboard`; nil when there is neither.
    public var runtimeDir: String?
    /// The service's runtime folder.
    public static let serviceRuntime = "/run/splashboard"
    /// The system config file, read when it exists and `--config` is not given.
    public static let systemConfig = "/etc/splashboard/splashboard.conf"
    /// The framebuffer drawn on when no DRM device has a screen (`fb-device`).
    public static let framebuffer = "/dev/fb0"

    /// `systemInstall`: root on a device where the package is installed, which means the
    /// service's folders too.
    public init(environment: [String: String], systemInstall: Bool = false) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        func first(_ list: String?) -> String? {
            // systemd passes a colon-separated list when several folders are configured.
            list?.split(separator: ":").first.map(String.init)
        }
        let serviceUser = ["splashboard", "splashboard-net"].contains(environment["USER"] ?? "") || systemInstall
        if let state = first(environment["STATE_DIRECTORY"]) {
            dataDir = state
        } else if serviceUser {
            dataDir = "/var/lib/splashboard"
        } else {
            let base = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/state"
            dataDir = base + "/splashboard"
        }
        if let runtime = first(environment["RUNTIME_DIRECTORY"]) {
            runtimeDir = runtime
        } else if serviceUser {
            runtimeDir = Self.serviceRuntime
        } else {
            runtimeDir = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 + "/splashboard" : nil }
        }
        if let cache = first(environment["CACHE_DIRECTORY"]) {
            cacheDir = cache
        } else if serviceUser {
            cacheDir = "/var/cache/splashboard"
        } else {
            let base = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.cache"
            cacheDir = base + "/splashboard"
        }
    }
}
