import Foundation

/// Turns the command line and the config file into a `Command` and `KioskOptions`.
/// Everything is validated before anything runs: a bad value throws an `OptionError`
/// naming the option (or `file:line`), and the caller exits 2 having written nothing.
public enum OptionParser {
    /// The result of a successful parse.
    public struct Parsed: Equatable, Sendable {
        public var command: Command
        public var options: KioskOptions
    }

    /// Parses `arguments` (without the program name).
    /// - Parameters:
    ///   - environment: the process environment, for the default folders.
    ///   - currentDirectory: makes a relative `--feed` path absolute.
    ///   - readFile: the text of a file, nil when it does not exist; throws when it cannot be read.
    public static func parse(
        _ arguments: [String],
        environment: [String: String],
        currentDirectory: String,
        readFile: (String) throws -> String?
    ) throws -> Parsed {
        var words: [String] = []
        var cliSettings: [Setting] = []
        var json = false
        var thumbnails: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--help" || argument == "-h" { return try parsedDefaults(.help, environment) }
            if argument == "--version" { return try parsedDefaults(.version, environment) }
            if argument == "--json" {
                json = true
                continue
            }
            if argument == "--thumbnails" || argument.hasPrefix("--thumbnails=") {
                if let eq = argument.firstIndex(of: "=") {
                    thumbnails = String(argument[argument.index(after: eq)...])
                } else {
                    guard index < arguments.count else {
                        throw OptionError(source: "--thumbnails", problem: "needs a value: DIR")
                    }
                    thumbnails = arguments[index]
                    index += 1
                }
                guard !(thumbnails ?? "").isEmpty else { throw OptionError(source: "--thumbnails", problem: "needs a value: DIR") }
                continue
            }
            guard argument.hasPrefix("--") else {
                words.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let eq = name.firstIndex(of: "=") {
                value = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let spec = specs[name] else {
                throw OptionError(source: "--\(name)", problem: "unknown option (see --help)")
            }
            if spec.takesValue, value == nil {
                guard index < arguments.count else {
                    throw OptionError(source: "--\(name)", problem: "needs a value: \(spec.valueHint)")
                }
                value = arguments[index]
                index += 1
            } else if !spec.takesValue, value != nil {
                throw OptionError(source: "--\(name)", problem: "takes no value")
            }
            cliSettings.append(Setting(key: name, value: value, source: "--\(name)"))
        }

        let command: Command
        switch words {
        case [], ["run"]: command = .run
        case ["sync"]: command = .sync
        case ["campaigns"]:
            command = .campaigns(json: json, thumbnails: thumbnails.map { absolute($0, cwd: currentDirectory) })
        case ["cache", "clear"]: command = .cacheClear
        case ["status"]: command = .status(json: json)
        case let words where words.count == 2 && words[0] == "screenshot":
            guard words[1].lowercased().hasSuffix(".png") else {
                throw OptionError(source: "screenshot \(words[1])", problem: "the file must end in .png")
            }
            command = .screenshot(path: absolute(words[1], cwd: currentDirectory))
        default:
            throw OptionError(source: words.joined(separator: " "),
                              problem: "unknown command; expected run, sync, campaigns, cache clear, status or screenshot FILE.png (see --help)")
        }
        if case .campaigns = command {} else {
            if json, command != .status(json: true) {
                throw OptionError(source: "--json", problem: "only `splashboard campaigns` and `status` take --json")
            }
            if thumbnails != nil {
                throw OptionError(source: "--thumbnails", problem: "only `splashboard campaigns` takes --thumbnails")
            }
        }

        let defaults = DefaultPaths(environment: environment)
        var options = KioskOptions(dataDir: defaults.dataDir, cacheDir: defaults.cacheDir)
        options.runtimeDir = defaults.runtimeDir

        // The config file first, so the command line overrides it.
        let explicitConfig = cliSettings.last { $0.key == "config" }?.value
        let configPath = explicitConfig ?? DefaultPaths.systemConfig
        let configText: String?
        do {
            configText = try readFile(configPath)
        } catch {
            throw OptionError(source: explicitConfig != nil ? "--config" : configPath,
                              problem: "cannot read \(configPath): \(error.localizedDescription)")
        }
        if let configText {
            options.configPath = configPath
            for setting in try ConfigFile.parse(configText, path: configPath) {
                guard let spec = specs[setting.key], spec.inConfig else {
                    throw OptionError(source: setting.source, problem: "unknown setting `\(setting.key)` (see --help)")
                }
                try spec.apply(&options, setting, currentDirectory)
            }
        } else if explicitConfig != nil {
            throw OptionError(source: "--config", problem: "no such file: \(configPath)")
        }
        for setting in cliSettings where setting.key != "config" {
            try specs[setting.key]!.apply(&options, setting, currentDirectory)
        }
        return Parsed(command: command, options: options)
    }

    private static func parsedDefaults(_ command: Command, _ environment: [String: String]) throws -> Parsed {
        let defaults = DefaultPaths(environment: environment)
        var options = KioskOptions(dataDir: defaults.dataDir, cacheDir: defaults.cacheDir)
        options.runtimeDir = defaults.runtimeDir
        return Parsed(command: command, options: options)
    }

    /// One option: whether it takes a value, whether the config file may set it, and how
    /// its value is checked and stored.
    struct Spec {
        var takesValue = true
        var inConfig = true
        var valueHint: String
        var apply: (inout KioskOptions, Setting, String) throws -> Void
    }

    static let specs: [String: Spec] = [
        "config": Spec(inConfig: false, valueHint: "PATH") { _, _, _ in },
        "feed": Spec(valueHint: "URL") { o, s, cwd in o.feed = try url(s, cwd: cwd, schemes: ["http", "https", "file"]) },
        "data-dir": Spec(valueHint: "DIR") { o, s, cwd in o.dataDir = try directory(s, cwd: cwd) },
        "cache-dir": Spec(valueHint: "DIR") { o, s, cwd in o.cacheDir = try directory(s, cwd: cwd) },
        "countdown": Spec(valueHint: "N (1-30)") { o, s, _ in o.countdown = try integer(s, in: 1...30) },
        "pick": Spec(valueHint: "newest|rotate") { o, s, _ in o.pick = try choice(s, PickRule.self) },
        "fit": Spec(valueHint: "fit|fill") { o, s, _ in o.fit = try choice(s, ImageFit.self) },
        "background": Spec(valueHint: "#RRGGBB") { o, s, _ in
            guard let c = RGBColor(hex: try text(s)) else {
                throw OptionError(source: s.source, problem: "expected a colour like #1A2B3C, got \"\(s.value ?? "")\"")
            }
            o.background = c
        },
        "fallback": Spec(valueHint: "image|skip") { o, s, _ in o.fallback = try choice(s, FallbackMode.self) },
        "attract-after": Spec(valueHint: "SECONDS (0 = never)") { o, s, _ in
            o.attractAfter = try integer(s, in: 0...86_400)
        },
        "sync-interval": Spec(valueHint: "SECONDS") { o, s, _ in o.syncInterval = try integer(s, in: 10...604_800) },
        "cache-max-mb": Spec(valueHint: "MB") { o, s, _ in o.cacheMaxMB = try integer(s, in: 16...1_048_576) },
        "device-id": Spec(valueHint: "ID") { o, s, _ in
            let id = try text(s)
            guard DeviceIdentity.isValid(id) else {
                throw OptionError(source: s.source,
                                  problem: "expected 1 to 64 letters, digits, '.', '_', '-' or ':', got \"\(TerminalText.printable(id))\"")
            }
            o.deviceID = id
        },
        "allow-private-addresses": Spec(valueHint: "auto|yes|no") { o, s, _ in
            switch try text(s).lowercased() {
            case "auto": o.privateAddresses = .automatic
            case "yes", "true", "on", "1": o.privateAddresses = .allowed
            case "no", "false", "off", "0": o.privateAddresses = .refused
            default: throw OptionError(source: s.source, problem: "expected auto, yes or no, got \"\(s.value ?? "")\"")
            }
        },
        "metrics-file": Spec(valueHint: "PATH|off") { o, s, cwd in
            o.metricsFile = try text(s).lowercased() == "off" ? "off" : try path(s, cwd: cwd)
        },
        "report-url": Spec(valueHint: "URL") { o, s, cwd in
            let u = try url(s, cwd: cwd, schemes: ["http", "https"])
            guard !u.isFileURL else {
                throw OptionError(source: s.source, problem: "expected an http:// or https:// URL (an OTLP/HTTP logs receiver)")
            }
            o.reportURL = u
        },
        "poetry-url": Spec(valueHint: "URL") { o, s, cwd in o.poetryURL = try url(s, cwd: cwd, schemes: ["http", "https", "file"]) },
        "poetry-image-url": Spec(valueHint: "URL") { o, s, cwd in
            o.poetryImageURL = try url(s, cwd: cwd, schemes: ["http", "https", "file"])
        },
        "poetry-refresh": Spec(valueHint: "SECONDS") { o, s, _ in o.poetryRefresh = try integer(s, in: 10...86_400) },
        "font": Spec(valueHint: "PATH") { o, s, cwd in o.font = try path(s, cwd: cwd) },
        "rotate": Spec(valueHint: "0|90|180|270") { o, s, _ in
            guard let r = Int(try text(s)).flatMap(Rotation.init(rawValue:)) else {
                throw OptionError(source: s.source, problem: "expected 0, 90, 180 or 270, got \"\(s.value ?? "")\"")
            }
            o.rotate = r
        },
        "drm-device": Spec(valueHint: "PATH") { o, s, cwd in o.drmDevice = try path(s, cwd: cwd) },
        "network-socket": Spec(valueHint: "PATH") { o, s, cwd in o.networkSocket = try path(s, cwd: cwd) },
        "size": Spec(valueHint: "WxH") { o, s, _ in o.size = try size(s) },
        "log-format": Spec(valueHint: "text|json") { o, s, _ in o.logFormat = try choice(s, LogFormat.self) },
        "headless": Spec(takesValue: false, valueHint: "") { o, s, _ in o.headless = try flag(s) },
        "wait-for-display": Spec(takesValue: false, valueHint: "") { o, s, _ in o.waitForDisplay = try flag(s) },
        "snapshot": Spec(valueHint: "DIR") { o, s, cwd in o.snapshotDir = try directory(s, cwd: cwd) },
        "exit-after": Spec(valueHint: "first-frame|splash|detail|SECONDS") { o, s, _ in
            guard let e = ExitCondition(argument: try text(s)) else {
                throw OptionError(source: s.source,
                                  problem: "expected first-frame, splash, detail or a number of seconds, got \"\(s.value ?? "")\"")
            }
            o.exitAfter = e
        },
        "clock": Spec(valueHint: "real|virtual") { o, s, _ in o.clock = try choice(s, ClockMode.self) },
        "script": Spec(valueHint: "FILE") { o, s, cwd in o.script = try path(s, cwd: cwd) },
    ]

    // MARK: value checks

    private static func text(_ s: Setting) throws -> String {
        guard let v = s.value, !v.isEmpty else {
            throw OptionError(source: s.source, problem: "needs a value")
        }
        return v
    }

    private static func integer(_ s: Setting, in range: ClosedRange<Int>) throws -> Int {
        let v = try text(s)
        guard let n = Int(v), range.contains(n) else {
            throw OptionError(source: s.source,
                              problem: "expected a whole number from \(range.lowerBound) to \(range.upperBound), got \"\(v)\"")
        }
        return n
    }

    private static func choice<T: RawRepresentable & CaseIterable>(_ s: Setting, _: T.Type) throws -> T
    where T.RawValue == String {
        let v = try text(s)
        guard let c = T(rawValue: v) else {
            let names = T.allCases.map(\.rawValue).joined(separator: " or ")
            throw OptionError(source: s.source, problem: "expected \(names), got \"\(v)\"")
        }
        return c
    }

    private static func flag(_ s: Setting) throws -> Bool {
        guard let v = s.value else { return true }
        switch v.lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: throw OptionError(source: s.source, problem: "expected true or false, got \"\(v)\"")
        }
    }

    private static func size(_ s: Setting) throws -> Size {
        let v = try text(s)
        let parts = v.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (64...16_384).contains(w), (64...16_384).contains(h)
        else {
            throw OptionError(source: s.source, problem: "expected WIDTHxHEIGHT like 1920x1080 (64 to 16384 each), got \"\(v)\"")
        }
        return Size(width: w, height: h)
    }

    private static func path(_ s: Setting, cwd: String) throws -> String {
        absolute(try text(s), cwd: cwd)
    }

    /// `path` made absolute against `cwd`.
    private static func absolute(_ path: String, cwd: String) -> String {
        path.hasPrefix("/") ? path : (cwd.hasSuffix("/") ? cwd : cwd + "/") + path
    }

    private static func directory(_ s: Setting, cwd: String) throws -> String {
        try path(s, cwd: cwd)
    }

    /// A URL with one of `schemes`; a plain path is taken as a file URL.
    private static func url(_ s: Setting, cwd: String, schemes: Set<String>) throws -> URL {
        let v = try text(s)
        if !v.contains("://") {
            return URL(fileURLWithPath: try path(s, cwd: cwd))
        }
        guard let u = URL(string: v), let scheme = u.scheme?.lowercased(), schemes.contains(scheme),
              scheme == "file" || (u.host.map { !$0.isEmpty } ?? false)
        else {
            throw OptionError(source: s.source,
                              problem: "expected an http://, https:// or file:// URL, got \"\(v)\"")
        }
        return u
    }
}
