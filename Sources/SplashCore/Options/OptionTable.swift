import FoundationEssentials

/// One option of the kiosk: its name, the value it takes, its default, what it does, and
/// how its value is checked and stored. `OptionParser.table` is the one list of them:
/// `--help` is made from it, and tests hold the man page and the shipped config file to it.
public struct OptionSpec: Sendable {
    /// Where an option belongs.
    public enum Group: Sendable {
        /// A setting of the kiosk, also a `key = value` line in the config file.
        case kiosk
        /// Headless and test runs.
        case headless
        /// Only on the command line (`--config`).
        case commandLine
    }

    /// The name without `--`, as the config file's key.
    public var name: String
    /// What the value looks like (`N`, `URL`, `fit|fill`); empty for a flag.
    public var valueHint: String
    /// The default as a person reads it; nil when it needs no saying.
    public var defaultText: String?
    /// What the option does, in one or two sentences.
    public var help: String
    /// Where it belongs, and so where `--help` lists it.
    public var group: Group
    var apply: @Sendable (inout KioskOptions, Setting, String) throws -> Void

    /// Whether a value follows it; a flag takes none.
    public var takesValue: Bool { !valueHint.isEmpty }
    /// Whether it may be set in the config file too.
    public var inConfig: Bool { group != .commandLine }
}

extension OptionParser {
    /// The options as a run starts with them: the defaults `table` says are these values,
    /// declared once, in `KioskOptions`.
    static let standard = KioskOptions(dataDir: "", cacheDir: "")

    /// Every option, in the order `--help` lists them.
    public static let table: [OptionSpec] = [
        OptionSpec(name: "config", valueHint: "PATH", defaultText: "\(DefaultPaths.systemConfig) when it exists",
                   help: "config file", group: .commandLine) { _, _, _ in },
        OptionSpec(name: "feed", valueHint: "URL", defaultText: "the bundled demo feed",
                   help: "campaign feed: an http://, https:// or file:// URL, or a path", group: .kiosk) { o, s, cwd in
            o.feed = try url(s, cwd: cwd, schemes: ["http", "https", "file"])
        },
        OptionSpec(name: "data-dir", valueHint: "DIR", defaultText: "$STATE_DIRECTORY or ~/.local/state/splashboard",
                   help: "database folder", group: .kiosk) { o, s, cwd in o.dataDir = try directory(s, cwd: cwd) },
        OptionSpec(name: "cache-dir", valueHint: "DIR", defaultText: "$CACHE_DIRECTORY or ~/.cache/splashboard",
                   help: "image cache folder", group: .kiosk) { o, s, cwd in o.cacheDir = try directory(s, cwd: cwd) },
        OptionSpec(name: "sync-interval", valueHint: "SECONDS", defaultText: "\(standard.syncInterval)",
                   help: "feed sync period, 10 to 604800 (each wait spread by up to 10 % either way)",
                   group: .kiosk) { o, s, _ in o.syncInterval = try integer(s, in: 10...604_800) },
        OptionSpec(name: "revalidate-after", valueHint: "SECONDS", defaultText: "\(standard.revalidateAfter)",
                   help: "ask again for a cached picture or clip this long after it was last checked, 60 to 604800 "
                       + "(sooner when the feed changed or its server's max-age ran out; a sync run by hand asks for all)",
                   group: .kiosk) { o, s, _ in o.revalidateAfter = try integer(s, in: 60...604_800) },
        OptionSpec(name: "cache-max-mb", valueHint: "MB", defaultText: "\(standard.cacheMaxMB)",
                   help: "image cache size cap, 16 to 1048576", group: .kiosk) { o, s, _ in
            o.cacheMaxMB = try integer(s, in: 16...1_048_576)
        },
        OptionSpec(name: "video-max-mb", valueHint: "MB", defaultText: "\(standard.videoMaxMB)",
                   help: "largest campaign clip fetched, 1 to 4096 (a larger one: its picture is shown)",
                   group: .kiosk) { o, s, _ in
            o.videoMaxMB = try integer(s, in: 1...VideoLimits.largestMaxMB)
        },
        OptionSpec(name: "device-id", valueHint: "ID", defaultText: "derived from /etc/machine-id for this application",
                   help: "who this kiosk is to its fleet: 1 to 64 letters, digits, '.', '_', '-' or ':'",
                   group: .kiosk) { o, s, _ in
            let id = try text(s)
            guard DeviceIdentity.isValid(id) else {
                throw OptionError(source: s.source,
                                  problem: "expected 1 to 64 letters, digits, '.', '_', '-' or ':', got \"\(TerminalText.printable(id))\"")
            }
            o.deviceID = id
        },
        OptionSpec(name: "device-groups", valueHint: "NAMES", defaultText: "no group",
                   help: "the groups this kiosk is in, which a feed's campaigns and screen schedules may target: names separated "
                       + "by commas, each as a device id; its device id is always a group of its own; * for every group "
                       + "(every campaign is shown)",
                   group: .kiosk) { o, s, _ in
            switch DeviceGroups.parse(try text(s)) {
            case .success(let names): o.deviceGroups = names
            case .failure(let bad):
                throw OptionError(source: s.source, problem: "expected names separated by commas, each 1 to 64 letters, digits, "
                                  + "'.', '_', '-' or ':', got \"\(TerminalText.printable(bad.name))\"")
            }
        },
        OptionSpec(name: "report-url", valueHint: "URL", defaultText: "off",
                   help: "report every show (proof of play) as OTLP/HTTP JSON logs to this receiver, e.g. http://collector:4318/v1/logs",
                   group: .kiosk) { o, s, cwd in
            let u = try url(s, cwd: cwd, schemes: ["http", "https"])
            guard !u.isFileURL else {
                throw OptionError(source: s.source, problem: "expected an http:// or https:// URL (an OTLP/HTTP logs receiver)")
            }
            o.reportURL = u
        },
        OptionSpec(name: "metrics-file", valueHint: "PATH|off",
                   defaultText: "/var/lib/prometheus/node-exporter/splashboard.prom when that folder exists",
                   help: "keep Prometheus metrics in this file; off: none", group: .kiosk) { o, s, cwd in
            o.metricsFile = try text(s).lowercased() == "off" ? "off" : try path(s, cwd: cwd)
        },
        OptionSpec(name: "allow-private-addresses", valueHint: "auto|yes|no", defaultText: standard.privateAddresses.optionValue,
                   help: "may pictures, poems and redirects lead to loopback, LAN or link-local addresses? auto: only when the feed is a file or written as such an address (a feed named by a host name reaches its own host and no other inside)",
                   group: .kiosk) { o, s, _ in
            guard let rule = PrivateAddresses(optionValue: try text(s)) else {
                throw OptionError(source: s.source, problem: "expected auto, yes or no, got \"\(s.value ?? "")\"")
            }
            o.privateAddresses = rule
        },
        OptionSpec(name: "countdown", valueHint: "N", defaultText: "\(standard.countdown)",
                   help: "seconds on the splash, \(Campaign.countdownRange.lowerBound) to \(Campaign.countdownRange.upperBound)",
                   group: .kiosk) { o, s, _ in o.countdown = try integer(s, in: Campaign.countdownRange) },
        OptionSpec(name: "pick", valueHint: "newest|rotate", defaultText: standard.pick.rawValue,
                   help: "among the eligible campaigns of the top priority: the newest (one for this screen's groups first), or each in turn, the least recently shown first",
                   group: .kiosk) { o, s, _ in o.pick = try choice(s, PickRule.self) },
        OptionSpec(name: "fit", valueHint: "fit|fill", defaultText: standard.fit.rawValue,
                   help: "letterbox the picture on the background colour, or crop it to cover",
                   group: .kiosk) { o, s, _ in o.fit = try choice(s, ImageFit.self) },
        OptionSpec(name: "background", valueHint: "#RRGGBB", defaultText: standard.background.description,
                   help: "letterbox colour", group: .kiosk) { o, s, _ in
            guard let c = RGBColor(hex: try text(s)) else {
                throw OptionError(source: s.source, problem: "expected a colour like #1A2B3C, got \"\(s.value ?? "")\"")
            }
            o.background = c
        },
        OptionSpec(name: "fallback", valueHint: "image|skip", defaultText: standard.fallback.rawValue,
                   help: "nothing eligible: the bundled default picture, or no splash",
                   group: .kiosk) { o, s, _ in o.fallback = try choice(s, FallbackMode.self) },
        OptionSpec(name: "attract-after", valueHint: "SECONDS", defaultText: "\(standard.attractAfter)",
                   help: "idle detail screen returns to the splash, 0 to 86400; 0 = never", group: .kiosk) { o, s, _ in
            o.attractAfter = try integer(s, in: 0...86_400)
        },
        OptionSpec(name: "poetry-url", valueHint: "URL", defaultText: "the bundled poems",
                   help: "poem source in the jinrishici v1 shape", group: .kiosk) { o, s, cwd in
            o.poetryURL = try url(s, cwd: cwd, schemes: ["http", "https", "file"])
        },
        OptionSpec(name: "poetry-image-url", valueHint: "URL", defaultText: nil,
                   help: "poem picture", group: .kiosk) { o, s, cwd in
            o.poetryImageURL = try url(s, cwd: cwd, schemes: ["http", "https", "file"])
        },
        OptionSpec(name: "poetry-refresh", valueHint: "SECONDS", defaultText: "\(standard.poetryRefresh)",
                   help: "poetry panel refresh, 10 to 86400", group: .kiosk) { o, s, _ in
            o.poetryRefresh = try integer(s, in: 10...86_400)
        },
        OptionSpec(name: "font", valueHint: "PATH", defaultText: "a Chinese font found with fontconfig",
                   help: "font file", group: .kiosk) { o, s, cwd in o.font = try path(s, cwd: cwd) },
        OptionSpec(name: "rotate", valueHint: "0|90|180|270", defaultText: "\(standard.rotate.rawValue)",
                   help: "draw turned clockwise, for screens mounted on their side", group: .kiosk) { o, s, _ in
            guard let r = Int(try text(s)).flatMap(Rotation.init(rawValue:)) else {
                throw OptionError(source: s.source, problem: "expected 0, 90, 180 or 270, got \"\(s.value ?? "")\"")
            }
            o.rotate = r
        },
        OptionSpec(name: "drm-device", valueHint: "PATH", defaultText: "every one with a screen connected",
                   help: "on the console: the DRM device to draw on", group: .kiosk) { o, s, cwd in
            o.drmDevice = try path(s, cwd: cwd)
        },
        OptionSpec(name: "drm-mode", valueHint: "WxH[@HZ]", defaultText: "video= on the kernel's command line, else the screen's preferred",
                   help: "on the console: the mode to set on each screen that has it", group: .kiosk) { o, s, _ in
            let v = try text(s)
            guard let mode = DisplayMode(parsing: v) else {
                throw OptionError(source: s.source,
                                  problem: "expected WIDTHxHEIGHT or WIDTHxHEIGHT@HZ like 1920x1080@60, got \"\(TerminalText.printable(v))\"")
            }
            o.drmMode = mode
        },
        OptionSpec(name: "touch-output", valueHint: "CONNECTOR", defaultText: "the first screen",
                   help: "on the console with several screens: the screen (HDMI-A-2) that touch screens without a WL_OUTPUT udev property belong to",
                   group: .kiosk) { o, s, _ in
            let v = try text(s)
            guard !v.isEmpty, v.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw OptionError(source: s.source, problem: "expected a connector's name like HDMI-A-2 or DSI-1, got \"\(TerminalText.printable(v))\"")
            }
            o.touchOutput = v
        },
        OptionSpec(name: "fb-device", valueHint: "PATH", defaultText: DefaultPaths.framebuffer,
                   help: "on the console: the framebuffer to draw on when no DRM device has a screen",
                   group: .kiosk) { o, s, cwd in
            o.fbDevice = try path(s, cwd: cwd)
        },
        OptionSpec(name: "screen-hours", valueHint: "HH:MM-HH:MM,…", defaultText: "the feed's screen schedule, else all day",
                   help: "the hours the screen is on, in the device's time zone; several windows separated by commas, 22:00-02:00 runs over midnight",
                   group: .kiosk) { o, s, _ in
            o.screenSchedule.hours = try schedule(s) { try ScreenSchedule(hoursText: $0, daysText: nil, offDatesText: nil) }.hours
        },
        OptionSpec(name: "screen-days", valueHint: "mon,tue,…", defaultText: "every day",
                   help: "the days the screen is on (a window over midnight belongs to the day it begins on)",
                   group: .kiosk) { o, s, _ in
            o.screenSchedule.days = try schedule(s) { try ScreenSchedule(hoursText: nil, daysText: $0, offDatesText: nil) }.days
        },
        OptionSpec(name: "screen-off-dates", valueHint: "YYYY-MM-DD,…", defaultText: "no dates",
                   help: "dates the screen stays off all day (holidays)", group: .kiosk) { o, s, _ in
            o.screenSchedule.offDates = try schedule(s) { try ScreenSchedule(hoursText: nil, daysText: nil, offDatesText: $0) }.offDates
        },
        OptionSpec(name: "screen-off", valueHint: "cec,signal,backlight", defaultText: "cec,signal,backlight",
                   help: "how the screen is turned off, in this order, each where the device has it: HDMI-CEC standby, the display signal, the backlight; none: only stop drawing",
                   group: .kiosk) { o, s, _ in
            let v = try text(s)
            guard let methods = ScreenOffMethod.list(v) else {
                throw OptionError(source: s.source,
                                  problem: "expected cec, signal and backlight separated by commas, or none, got \"\(TerminalText.printable(v))\"")
            }
            o.screenOff = methods
        },
        OptionSpec(name: "wake-on-touch", valueHint: "SECONDS", defaultText: "\(standard.wakeOnTouch)",
                   help: "a touch on a screen off by its schedule turns it on for this long, 0 to 86400; 0 = a touch does not",
                   group: .kiosk) { o, s, _ in o.wakeOnTouch = try integer(s, in: 0...86_400) },
        OptionSpec(name: "size", valueHint: "WxH", defaultText: "the display; headless 1280x720",
                   help: "window or canvas size, 64 to 16384 each", group: .kiosk) { o, s, _ in o.size = try size(s) },
        OptionSpec(name: "log-format", valueHint: "text|json", defaultText: standard.logFormat.rawValue,
                   help: "readable lines on stderr, or JSON lines on stdout",
                   group: .kiosk) { o, s, _ in o.logFormat = try choice(s, LogFormat.self) },
        OptionSpec(name: "wait-for-display", valueHint: "", defaultText: "off; on in the service",
                   help: "no display yet: wait and retry instead of exiting", group: .kiosk) { o, s, _ in
            o.waitForDisplay = try flag(s)
        },
        OptionSpec(name: "network-socket", valueHint: "PATH", defaultText: "none: start one",
                   help: "use the network process listening on PATH (the system service's) instead of starting one",
                   group: .kiosk) { o, s, cwd in o.networkSocket = try path(s, cwd: cwd) },
        OptionSpec(name: "headless", valueHint: "", defaultText: nil,
                   help: "no display: frames drawn in memory and shown nowhere; events are JSON lines",
                   group: .headless) { o, s, _ in o.headless = try flag(s) },
        OptionSpec(name: "snapshot", valueHint: "DIR", defaultText: nil,
                   help: "write a PNG of every distinct screen", group: .headless) { o, s, cwd in
            o.snapshotDir = try directory(s, cwd: cwd)
        },
        OptionSpec(name: "exit-after", valueHint: "WHEN", defaultText: nil,
                   help: "first-frame, splash, detail, or a number of seconds", group: .headless) { o, s, _ in
            guard let e = ExitCondition(argument: try text(s)) else {
                throw OptionError(source: s.source,
                                  problem: "expected first-frame, splash, detail or a number of seconds, got \"\(s.value ?? "")\"")
            }
            o.exitAfter = e
        },
        OptionSpec(name: "clock", valueHint: "real|virtual", defaultText: standard.clock.rawValue,
                   help: "virtual: time jumps to the next deadline instead of sleeping",
                   group: .headless) { o, s, _ in o.clock = try choice(s, ClockMode.self) },
        OptionSpec(name: "keep-scratch", valueHint: "", defaultText: nil,
                   help: "with --clock virtual: keep the trial's scratch folder when it ends, to look at",
                   group: .headless) { o, s, _ in o.keepScratch = try flag(s) },
        OptionSpec(name: "now", valueHint: "DATE", defaultText: nil,
                   help: "the time taken as now, in ISO 8601 (2026-12-24T10:00:00+08:00): `campaigns` judges at it, "
                       + "a run with --clock virtual starts at it",
                   group: .headless) { o, s, _ in
            let value = try text(s)
            guard let date = ISO8601.date(from: value) else {
                throw OptionError(source: s.source, problem: ISO8601.problem(value).map { "\($0) (expected a date like 2026-12-24T10:00:00+08:00)" }
                                      ?? "expected a date like 2026-12-24T10:00:00+08:00, got \"\(value)\"")
            }
            o.now = date
        },
        OptionSpec(name: "script", valueHint: "FILE", defaultText: nil,
                   help: "scripted input: `<seconds> tap X Y | tap skip | hold X Y S | swipe X1 Y1 X2 Y2 S | key escape|pagedown|…`",
                   group: .headless) { o, s, cwd in o.script = try path(s, cwd: cwd) },
    ]

    /// The options by name.
    static let specs: [String: OptionSpec] = Dictionary(uniqueKeysWithValues: table.map { ($0.name, $0) })

    /// The names that a mistyped one is compared with.
    static var names: [String] { table.map(\.name) }
}
