import FoundationEssentials

/// What the running kiosk says of itself (`splashboard status`).
public struct KioskStatus: Equatable, Sendable {
    /// The running kiosk's version.
    public var version: String
    /// The device's id to its fleet (`device-id`), when it has one.
    public var device: String?
    /// `splash`, `detail` or `operator`.
    public var scene: String
    /// The campaign on the screen (nil: the default picture, or none).
    public var campaign: String?
    /// The countdown in the pill, on a splash.
    public var countdown: Int?
    /// The feed's address, without what could be a secret in it (`publicAddress`).
    public var feed: String
    /// When the kiosk last confirmed its catalog with the feed (a 304 counts).
    public var lastSync: Date?
    /// When the feed's content last changed.
    public var lastChange: Date?
    /// The warnings of the feed in force.
    public var warnings: [String]
    /// What keeps the kiosk from working as it should (a folder it cannot write), one line each.
    public var problems: [String] = []
    /// Campaigns whose picture is refused or not cached yet, and why, one line each.
    public var pictureProblems: [String] = []
    /// When the next sync starts, when one is scheduled and none is running.
    public var nextSync: Date?
    /// Why the last sync failed; nil once a feed has been applied since.
    public var lastError: String?
    /// Ended shows waiting to be reported (0 when nothing is reported).
    public var reportUnsent: Int
    /// Seconds the kiosk has been running.
    public var uptimeSeconds: Double
    /// The size drawn on, `WxH`.
    public var screen: String
    /// Whether the screen is lit.
    public var screenOn = true
    /// Why (`ScreenReason`).
    public var screenReason = ScreenReason.start
    /// Until when, as far as is known.
    public var screenUntil: Date?
    /// Whose schedule is in force: `config`, `feed` or `none`.
    public var screenSchedule = ScreenPower.Source.none
    /// The schedule in force in words: whose, its hours, days and days off, its zone.
    public var screenScheduleInForce = ""
    /// The group whose schedule in the feed is in force; nil: not a group's.
    public var screenScheduleGroup: String?
    /// The answering kiosk's data folder: a command that names another learns it asked
    /// another kiosk.
    public var dataDir: String?
    /// When each eligible campaign runs out at the rate it is being shown: "a: about 1 h 40
    /// min at 1 show a minute" (`RunOut`), at most 20.
    public var runOut: [String] = []
    /// "screen off (schedule) until 07:30".
    public var screenSummary = "screen on"
    /// The groups this device is in (`device-groups`, then its id).
    public var groups: [String] = []
    /// Campaigns for other screens, and whose, one line each (at most 20).
    public var otherScreens: [String] = []

    /// A status with no problems and no next sync; those are set afterwards.
    public init(version: String, device: String?, scene: String, campaign: String?, countdown: Int?, feed: String,
                lastSync: Date?, lastChange: Date? = nil, lastError: String?, warnings: [String] = [], reportUnsent: Int,
                uptimeSeconds: Double, screen: String) {
        self.lastChange = lastChange
        self.warnings = warnings
        self.version = version
        self.device = device
        self.scene = scene
        self.campaign = campaign
        self.countdown = countdown
        self.feed = feed
        self.lastSync = lastSync
        self.lastError = lastError
        self.reportUnsent = reportUnsent
        self.uptimeSeconds = uptimeSeconds
        self.screen = screen
    }

    /// The catalog's campaigns whose picture is refused or missing, one line each (at most
    /// 20): only those this screen may show (another group's picture is never fetched here,
    /// and nothing on this screen could mend it).
    public static func pictureProblems(of state: KioskState) -> [String] {
        let lines = state.catalog.compactMap { entry -> String? in
            if let device = state.settings.device, !device.includes(entry.campaign.groups) { return nil }
            switch entry.picture {
            case .refused(let problem, _): return "\(entry.campaign.id): picture refused: \(problem)"
            case .waiting(let why): return "\(entry.campaign.id): picture not cached yet: \(why)"
            case .cached: return nil
            }
        }
        return lines.count > 20 ? Array(lines.prefix(20)) + ["… and \(lines.count - 20) more"] : lines
    }

    /// The catalog's campaigns for other screens, one line each (at most 20): "lobby-offer:
    /// for the groups lobby; this screen is in: cafe, kiosk-7".
    public static func otherScreens(of state: KioskState, now: Instant) -> [String] {
        let context = state.ruleContext(now)
        let lines = state.catalog.compactMap { entry -> String? in
            guard let reason = CampaignRules.reason(of: entry, at: now.date, context: context), reason.isElsewhere else { return nil }
            return "\(entry.campaign.id): \(reason.message)"
        }
        return lines.count > 20 ? Array(lines.prefix(20)) + ["… and \(lines.count - 20) more"] : lines
    }

    /// The screen's power as `state` has it, at `now`, said in the schedule's zone.
    public mutating func takeScreenPower(of state: KioskState, now: Date) {
        let power = state.screenPower
        screenOn = power.isOn
        screenReason = power.reason
        screenUntil = power.until
        screenSchedule = power.source
        screenScheduleInForce = Kiosk.scheduleInForce(of: state)
        screenScheduleGroup = power.source == .feed ? power.feedGroup : nil
        screenSummary = Kiosk.screenSummary(of: state, now: now)
    }

    /// The scene, campaign and countdown of `state`.
    public static func screen(of state: KioskState) -> (scene: String, campaign: String?, countdown: Int?) {
        switch state.scene {
        case .starting: return (state.screenPower.isOn ? "starting" : "off", nil, nil)
        case .splash(let s): return ("splash", s.campaignID?.rawValue, s.countdown)
        case .detail(let d): return ("detail", d.campaignID?.rawValue, nil)
        case .operator: return ("operator", nil, nil)
        }
    }

    /// The status as the control socket answers it: a JSON object with snake_case keys.
    public var json: JSONValue {
        .object([
            ("version", .string(version)), ("device", device.map(JSONValue.string) ?? .null),
            ("scene", .string(scene)), ("campaign", campaign.map(JSONValue.string) ?? .null),
            ("countdown", countdown.map(JSONValue.int) ?? .null), ("feed", .string(feed)),
            ("last_sync", lastSync.map { .string(ISO8601.string(from: $0)) } ?? .null),
            ("last_change", lastChange.map { .string(ISO8601.string(from: $0)) } ?? .null),
            ("last_error", lastError.map(JSONValue.string) ?? .null),
            ("feed_warnings", .array(warnings.map(JSONValue.string))),
            ("problems", .array(problems.map(JSONValue.string))),
            ("picture_problems", .array(pictureProblems.map(JSONValue.string))),
            ("groups", .array(groups.map(JSONValue.string))),
            ("other_screens", .array(otherScreens.map(JSONValue.string))),
            ("next_sync", nextSync.map { .string(ISO8601.string(from: $0)) } ?? .null),
            ("report_unsent", .int(reportUnsent)), ("uptime_seconds", .double((uptimeSeconds * 10).rounded() / 10)),
            ("screen", .string(screen)),
            ("screen_on", .bool(screenOn)), ("screen_reason", .string(screenReason.rawValue)),
            ("screen_until", screenUntil.map { .string(ISO8601.string(from: $0)) } ?? .null),
            ("screen_schedule", .string(screenSchedule.rawValue)), ("screen_power", .string(screenSummary)),
            ("screen_schedule_group", screenScheduleGroup.map(JSONValue.string) ?? .null),
            ("screen_schedule_in_force", .string(screenScheduleInForce)),
            ("runs_out", .array(runOut.map(JSONValue.string))),
            ("data_dir", dataDir.map(JSONValue.string) ?? .null),
        ])
    }
}
