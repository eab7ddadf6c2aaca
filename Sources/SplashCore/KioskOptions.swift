import Foundation

/// Every setting of a run, after the config file and the command line are merged.
/// Defaults are those of the product specification.
public struct KioskOptions: Equatable, Sendable {
    public var configPath: String?
    /// The campaign feed; nil means the bundled demo feed.
    public var feed: URL?
    public var dataDir: String
    public var cacheDir: String
    /// The folder of the control socket (`DefaultPaths.runtimeDir`); nil: none.
    public var runtimeDir: String?
    public var countdown: Int = 3
    /// How the eligible campaigns of the top priority take turns.
    public var pick: PickRule = .newest
    public var fit: ImageFit = .fit
    public var background: RGBColor = .black
    public var fallback: FallbackMode = .image
    /// Seconds of no input on the detail screen before the splash returns; 0 = never.
    public var attractAfter: Int = 60
    public var syncInterval: Int = 900
    /// Image cache cap in MiB.
    public var cacheMaxMB: Int = 256
    /// Who this kiosk is to its fleet; nil means derived from /etc/machine-id (`DeviceIdentity`).
    public var deviceID: String?
    /// Whether pictures, poems and redirects may lead inside the network (`allow-private-addresses`).
    public var privateAddresses: PrivateAddresses = .automatic
    /// The Prometheus text file to keep (node exporter's textfile collector); nil means
    /// the default: /var/lib/prometheus/node-exporter/splashboard.prom when that folder
    /// exists; `off`: none.
    public var metricsFile: String?
    /// Where every show is reported as an OTLP/HTTP JSON log record; nil: not reported.
    public var reportURL: URL?
    public var poetryURL: URL?
    public var poetryImageURL: URL?
    public var poetryRefresh: Int = 300
    /// A font file; nil means "ask fontconfig for a Chinese font".
    public var font: String?
    public var rotate: Rotation = .none
    /// The DRM device to draw on at the console (e.g. /dev/dri/card1); nil means the first
    /// one with a screen connected.
    public var drmDevice: String?
    /// Window or headless canvas size; nil means the display's (headless: 1280x720).
    public var size: Size?
    public var logFormat: LogFormat = .text
    public var headless = false
    /// With no display at start, wait and retry (as the boot service does) instead of exiting.
    public var waitForDisplay = false
    /// The network process's socket, when one runs already (the system service's); nil
    /// means the kiosk starts its own network process.
    public var networkSocket: String?
    public var snapshotDir: String?
    public var exitAfter: ExitCondition?
    public var clock: ClockMode = .real
    public var script: String?

    public init(dataDir: String, cacheDir: String) {
        self.dataDir = dataDir
        self.cacheDir = cacheDir
    }

    /// The size to lay out in when no display tells us one.
    public static let headlessDefaultSize = Size(width: 1280, height: 720)

    /// JSON lines are always used headless, so CI can read the events.
    public var effectiveLogFormat: LogFormat { headless ? .json : logFormat }
}
