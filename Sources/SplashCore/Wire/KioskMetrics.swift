import FoundationEssentials

/// The kiosk's health in the Prometheus text exposition format, for node exporter's
/// textfile collector (`metrics-file`): what a fleet that already scrapes node_exporter
/// reads with no new port.
public struct KioskMetrics: Equatable, Sendable {
    /// The running Splashboard's version (`splashboard_build_info`).
    public var version: String
    /// Who the device is (`splashboard_device_info`, with `deviceGroups`); nil: no series.
    public var deviceID: String?
    /// The groups the device is in (`device-groups`).
    public var deviceGroups: [String] = []
    /// Shows in the ledger by campaign and how they ended (`tap`, `key`, `timeout`,
    /// `click_through`, `operator_view`, `interrupted`).
    public var shows: [ShowCount] = []
    /// Syncs since this start, by status (`ok`, `not_modified`, `error`).
    public var syncs: [SyncStatus: Int] = [:]
    /// When the kiosk last confirmed its catalog with the feed (an applied feed or a 304).
    public var lastSyncSuccess: Date?
    /// When the feed's content last changed.
    public var lastChange: Date?
    /// Warnings of the feed in force (entries skipped, fields left out).
    public var feedWarnings = 0
    /// Failed syncs since this start, by what went wrong (`SyncFailure`).
    public var syncErrors: [String: Int] = [:]
    /// Campaigns in the catalog by state (`CampaignState`).
    public var campaigns: [CampaignState: Int] = [:]
    /// Bytes of cached pictures.
    public var cacheBytes: Int = 0
    /// From the process's start to its first frame, once there was one.
    public var firstFrameSeconds: Double?
    /// Ended shows not reported yet (`report-url`).
    public var reportUnsent: Int = 0
    /// `splash`, `detail` or `operator`; nil before the first frame.
    public var scene: String?
    /// Whether the screen is lit, and why (`ScreenReason`); nil before the kiosk started.
    public var screenOn: Bool?
    /// Why the screen is as it is (`ScreenReason`).
    public var screenReason = ScreenReason.start.rawValue
    /// Seconds the screen has been lit since the kiosk started, as of the file's write.
    public var screenSecondsOn: Double = 0
    /// Seconds it has been off.
    public var screenSecondsOff: Double = 0
    /// Screens drawn on (0: no display connected).
    public var outputs: Int?

    /// Metrics of a kiosk of this version with nothing counted yet.
    public init(version: String) {
        self.version = version
    }

    /// Shows of one campaign that ended one way.
    public struct ShowCount: Equatable, Sendable {
        /// The campaign's id.
        public var campaign: String
        /// How they ended (`tap`, `timeout`, …).
        public var endedBy: ShowEnd
        /// How many there are.
        public var count: Int

        /// The count of `campaign`'s shows that ended by `endedBy`.
        public init(campaign: String, endedBy: ShowEnd, count: Int) {
            self.campaign = campaign
            self.endedBy = endedBy
            self.count = count
        }
    }

    /// A campaign's state as the metrics count it.
    public enum CampaignState: String, CaseIterable, Sendable {
        case eligible
        case usedUp = "used_up"
        case notStarted = "not_started"
        case ended
        case imageMissing = "image_missing"
        /// Not shown now for a reason time ends: outside its days or hours, its daily cap,
        /// its spacing, a clock not trusted yet.
        case waiting
        /// For other screens (its `groups` do not include this device).
        case otherScreens = "other_screens"

        /// The state of `entry` at `date`, by the one definition of eligible (`CampaignRules`).
        public init(_ entry: CatalogEntry, at date: Date, context: RuleContext) {
            switch CampaignRules.reason(of: entry, at: date, context: context) {
            case nil: self = .eligible
            case .notStarted: self = .notStarted
            case .ended, .emptyWindow: self = .ended
            case .usedUp: self = .usedUp
            case .imageRefused, .imageMissing: self = .imageMissing
            case .waitingForClock, .notToday, .outsideHours, .dailyCapReached, .tooSoon: self = .waiting
            case .notForThisDevice: self = .otherScreens
            }
        }
    }

    /// The scenes `splashboard_scene` has a series for.
    public static let scenes = ["splash", "detail", "operator"]

    /// The file's text.
    public var text: String {
        var out = ""
        func family(_ name: String, _ type: String, _ help: String) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        func sample(_ name: String, _ labels: [(String, String)] = [], _ value: String) {
            let rendered = labels.isEmpty ? "" : "{" + labels.map { "\($0.0)=\"\(Self.escape($0.1))\"" }.joined(separator: ",") + "}"
            out += "\(name)\(rendered) \(value)\n"
        }
        family("splashboard_build_info", "gauge", "The running Splashboard's version (always 1).")
        sample("splashboard_build_info", [("version", version)], "1")
        if let deviceID {
            family("splashboard_device_info", "gauge", "Who this kiosk is (device-id) and the groups it is in (device-groups; always 1).")
            sample("splashboard_device_info", [("device", deviceID), ("groups", deviceGroups.joined(separator: ","))], "1")
        }
        family("splashboard_shows_total", "counter", "Shows in the ledger, by campaign and how they ended.")
        for s in shows.sorted(by: { ($0.campaign, $0.endedBy.rawValue) < ($1.campaign, $1.endedBy.rawValue) }) {
            sample("splashboard_shows_total", [("campaign", s.campaign), ("ended_by", s.endedBy.rawValue)], String(s.count))
        }
        family("splashboard_sync_total", "counter", "Feed syncs since the kiosk started, by status.")
        for status in [SyncStatus.ok, .notModified, .error] {
            sample("splashboard_sync_total", [("status", status.rawValue)], String(syncs[status] ?? 0))
        }
        family("splashboard_last_sync_success_timestamp_seconds", "gauge",
               "When the kiosk last confirmed its catalog with the feed, a 304 included (Unix seconds; 0: never).")
        sample("splashboard_last_sync_success_timestamp_seconds", [], Self.number(lastSyncSuccess?.timeIntervalSince1970 ?? 0))
        family("splashboard_feed_last_change_timestamp_seconds", "gauge",
               "When the feed's content last changed, as this kiosk saw it (Unix seconds; 0: never).")
        sample("splashboard_feed_last_change_timestamp_seconds", [], Self.number(lastChange?.timeIntervalSince1970 ?? 0))
        family("splashboard_feed_warnings", "gauge", "Warnings of the feed in force: entries skipped, fields left out.")
        sample("splashboard_feed_warnings", [], String(feedWarnings))
        family("splashboard_sync_errors_total", "counter", "Failed syncs since the kiosk started, by what went wrong.")
        for reason in syncErrors.keys.sorted() {
            sample("splashboard_sync_errors_total", [("reason", reason)], String(syncErrors[reason] ?? 0))
        }
        family("splashboard_campaigns", "gauge", "Campaigns in the catalog, by state.")
        for state in CampaignState.allCases {
            sample("splashboard_campaigns", [("state", state.rawValue)], String(campaigns[state] ?? 0))
        }
        family("splashboard_cache_bytes", "gauge", "Bytes of cached pictures.")
        sample("splashboard_cache_bytes", [], String(cacheBytes))
        if let firstFrameSeconds {
            family("splashboard_first_frame_seconds", "gauge", "From the process's start to its first frame.")
            sample("splashboard_first_frame_seconds", [], Self.number(firstFrameSeconds))
        }
        family("splashboard_report_unsent", "gauge", "Ended shows not reported yet (report-url).")
        sample("splashboard_report_unsent", [], String(reportUnsent))
        family("splashboard_scene", "gauge", "The screen on display (1) and the others (0).")
        for name in Self.scenes {
            sample("splashboard_scene", [("scene", name)], name == scene ? "1" : "0")
        }
        if let screenOn {
            family("splashboard_screen_on", "gauge",
                   "Whether the screen is lit (1) or turned off (0), and why: schedule, command, touch, start.")
            sample("splashboard_screen_on", [("reason", screenReason)], screenOn ? "1" : "0")
        }
        family("splashboard_screen_seconds_total", "counter", "Seconds the screen has been lit and turned off since the kiosk started.")
        sample("splashboard_screen_seconds_total", [("state", "on")], Self.number((screenSecondsOn * 10).rounded() / 10))
        sample("splashboard_screen_seconds_total", [("state", "off")], Self.number((screenSecondsOff * 10).rounded() / 10))
        if let outputs {
            family("splashboard_outputs", "gauge", "Screens drawn on (0: no display connected, whatever the schedule says).")
            sample("splashboard_outputs", [], String(outputs))
        }
        return out
    }

    /// A label value as the text format needs it: what a terminal would act on (`curl
    /// …/metrics` in an admin's terminal), a line break included, written out as
    /// `TerminalText` writes it (`\x0a`), then backslash and double quote escaped.
    static func escape(_ value: String) -> String {
        TerminalText.printable(value).replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
