import FoundationEssentials

/// Turns the command line and the config file into a `Command` and `KioskOptions`.
/// Everything is validated before anything runs: a bad value throws an `OptionError`
/// naming the option (or `file:line`), and the caller exits 2 having written nothing.
public enum OptionParser {
    /// The result of a successful parse.
    public struct Parsed: Equatable, Sendable {
        /// What to do.
        public var command: Command
        /// Every setting, the config file's first and the command line's over them.
        public var options: KioskOptions
        /// What was given but not used, each a line naming where: a key set twice in the
        /// config file, an option given twice on the command line (the later one is used).
        public var warnings: [String] = []
    }

    /// Parses `arguments` (without the program name).
    /// - Parameters:
    ///   - environment: the process environment, for the default folders.
    ///   - currentDirectory: makes a relative `--feed` path absolute.
    ///   - readFile: the text of a file, nil when it does not exist; throws when it cannot be read.
    ///   - asRoot: the process runs as root (where the package is installed, the default
    ///     folders are then the service's).
    public static func parse(
        _ arguments: [String],
        environment: [String: String],
        currentDirectory: String,
        readFile: (String) throws -> String?,
        asRoot: Bool = false
    ) throws -> Parsed {
        var words: [String] = []
        var cliSettings: [Setting] = []
        var json = false
        var knownGroups: [String]?
        var thumbnails: String?
        var out: String?
        var sizes: [Size] = []
        var index = 0
        /// The value after `--name`: the next argument, unless it is missing or is itself an option.
        func nextValue(_ name: String, hint: String) throws -> String {
            guard index < arguments.count, !isOption(arguments[index]) else {
                let got = index < arguments.count ? ", got the option \(arguments[index])" : ""
                throw OptionError(source: "--\(name)", problem: "needs a value: \(hint)\(got)")
            }
            index += 1
            return arguments[index - 1]
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--help" || argument == "-h" { return try parsedDefaults(.help, environment) }
            if argument == "--version" { return try parsedDefaults(.version, environment) }
            if argument == "--json" {
                json = true
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
            if name == "groups-known" {
                let v = try value ?? nextValue(name, hint: "NAMES")
                switch DeviceGroups.parse(v) {
                case .success(let names) where !names.isEmpty && !names.contains(DeviceGroups.everyGroup): knownGroups = names
                default:
                    throw OptionError(source: "--groups-known", problem: "expected the fleet's group names separated by commas, "
                                      + "each 1 to 64 letters, digits, '.', '_', '-' or ':', got \"\(TerminalText.printable(v))\"")
                }
                continue
            }
            if name == "thumbnails" || name == "out" {
                let v = try value ?? nextValue(name, hint: "DIR")
                guard !v.isEmpty else { throw OptionError(source: "--\(name)", problem: "needs a value: DIR") }
                if name == "out" { out = v } else { thumbnails = v }
                continue
            }
            guard let spec = specs[name] else {
                let hint = NearestName.suggestion(for: name, among: names + ["thumbnails", "out", "json", "groups-known"])
                    .map { "; did you mean --\($0)?" } ?? " (see --help)"
                throw OptionError(source: "--\(TerminalText.printable(name))", problem: "unknown option\(hint)")
            }
            if spec.takesValue, value == nil {
                value = try nextValue(name, hint: spec.valueHint)
            } else if !spec.takesValue, value != nil {
                throw OptionError(source: "--\(name)", problem: "takes no value")
            }
            let setting = Setting(key: name, value: value, source: "--\(name)")
            if name == "size" { sizes.append(try size(setting)) }
            cliSettings.append(setting)
        }

        let command = try self.command(words, json: json, thumbnails: thumbnails, out: out, sizes: sizes,
                                       currentDirectory: currentDirectory)

        // The config file first, so the command line overrides it.
        let explicitConfig = cliSettings.last { $0.key == "config" }?.value
        let configPath = explicitConfig.map { absolute($0, cwd: currentDirectory) } ?? DefaultPaths.systemConfig
        let configText: String?
        do {
            configText = try readFile(configPath)
        } catch let error as OptionError {
            throw OptionError(source: explicitConfig != nil && error.source == configPath ? "--config" : error.source,
                              problem: error.source == configPath ? "cannot read \(error.problem)" : error.problem)
        } catch {
            throw OptionError(source: explicitConfig != nil ? "--config" : configPath,
                              problem: "cannot read \(configPath): \(error.explained)")
        }
        // Root on a device where the package is installed (its config file is there) means
        // the service's folders: `sudo splashboard sync` syncs the kiosk, not root's own.
        let defaults = DefaultPaths(environment: environment,
                                    systemInstall: explicitConfig == nil && configText != nil && asRoot)
        var options = KioskOptions(dataDir: defaults.dataDir, cacheDir: defaults.cacheDir)
        options.runtimeDir = defaults.runtimeDir
        var warnings: [String] = []
        var dataDirNamed = false
        var cacheDirNamed = false
        if let configText {
            options.configPath = configPath
            var firstSet: [String: (place: String, value: String?)] = [:]
            for setting in try ConfigFile.parse(configText, path: configPath) {
                let place = setting.source.lastRange(of: ": ").map { String(setting.source[..<$0.lowerBound]) }
                    ?? setting.source
                if let first = firstSet[setting.key] {
                    warnings.append(twice(setting.key, first: first.place, again: place, values: [first.value, setting.value]))
                } else {
                    firstSet[setting.key] = (place, setting.value)
                }
                guard let spec = specs[setting.key], spec.inConfig else {
                    let known = table.filter(\.inConfig).map(\.name)
                    let problem = setting.key == "config"
                        ? "a config file cannot name another; use --config on the command line"
                        : "unknown setting" + (NearestName.suggestion(for: setting.key, among: known)
                            .map { "; did you mean \($0)?" } ?? " (the settings are the options of --help without --)")
                    throw OptionError(source: setting.source, problem: problem)
                }
                try spec.apply(&options, setting, currentDirectory)
                options.givenSettings.insert(setting.key)
            }
        } else if explicitConfig != nil {
            throw OptionError(source: "--config", problem: "no such file: \(configPath)")
        }
        // The device's data folder, before the command line names another: what a kiosk
        // started with this config file (or none) keeps its shows in.
        options.deviceDataDir = options.dataDir
        var given: [String: String?] = [:]
        for setting in cliSettings {
            // `--size` is given once per screen `preview` draws.
            if setting.key != "size", let first = given[setting.key] {
                warnings.append(twice(setting.key, first: nil, again: setting.source, values: [first, setting.value]))
            }
            given[setting.key] = setting.value
            guard setting.key != "config", let spec = specs[setting.key] else { continue }
            try spec.apply(&options, setting, currentDirectory)
            options.givenSettings.insert(setting.key)
            if setting.key == "data-dir" { dataDirNamed = true }
            if setting.key == "cache-dir" { cacheDirNamed = true }
        }
        options.dataDirNamed = dataDirNamed
        options.cacheDirNamed = cacheDirNamed
        if knownGroups != nil {
            guard case .feedCheck = command else {
                throw OptionError(source: "--groups-known", problem: "only `splashboard feed check` takes --groups-known")
            }
            options.knownGroups = knownGroups
        }
        if options.now != nil {
            switch command {
            case .run where options.clock == .virtual, .campaigns: break
            case .run:
                throw OptionError(source: "--now", problem: "a run on the real clock reads the system's time; "
                                  + "give --clock virtual with it")
            default:
                throw OptionError(source: "--now", problem: "only `campaigns` and a run with --clock virtual take a time")
            }
        }
        // Without a runtime folder (no XDG_RUNTIME_DIR: a shell over `su`, a cron job), the
        // control socket lives in the data folder, where `status` finds it by the same rule.
        if options.runtimeDir == nil { options.runtimeDir = options.dataDir }
        return Parsed(command: command, options: options, warnings: warnings)
    }

    /// The warning for `key` given again at `again` (`first`: where in the config file it
    /// was given first; nil on the command line), with the list syntax of an option that
    /// takes several values.
    static func twice(_ key: String, first: String?, again: String, values: [String?]) -> String {
        let takesList = specs[key]?.valueHint.contains(",") ?? false
        let both = values.compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ",")
        if let first {
            let list = takesList ? "; to keep both, list them in one value: \(key) = \(both)" : ""
            return "\(again): \(key) is set again (first at \(first)); only this later value is used\(list)"
        }
        let list = takesList ? "; to keep both, list them in one value: --\(key) \(both)" : ""
        return "\(again) is given twice; only the later value is used\(list)"
    }

    private static func isOption(_ argument: String) -> Bool {
        argument.hasPrefix("--") && argument.count > 2
    }

    /// The command the words name, with the flags only some commands take.
    private static func command(_ words: [String], json: Bool, thumbnails: String?, out: String?, sizes: [Size],
                                currentDirectory: String) throws -> Command {
        let command: Command
        switch words {
        case [], ["run"]: command = .run
        case ["sync"]: command = .sync
        case ["campaigns"]:
            command = .campaigns(json: json, thumbnails: thumbnails.map { absolute($0, cwd: currentDirectory) })
        case ["cache", "clear"]: command = .cacheClear
        case ["status"]: command = .status(json: json)
        case ["screenshot"]:
            throw OptionError(source: "screenshot", problem: "needs a file to write: splashboard screenshot FILE.png")
        case let words where words.count == 2 && words[0] == "screenshot":
            guard words[1].lowercased().hasSuffix(".png") else {
                throw OptionError(source: "screenshot \(words[1])", problem: "the file must end in .png")
            }
            command = .screenshot(path: absolute(words[1], cwd: currentDirectory))
        case ["screen"]:
            throw OptionError(source: "screen", problem: "needs on, off or auto: splashboard screen on|off|auto")
        case let words where words.count == 2 && words[0] == "screen":
            guard let state = ScreenCommand(rawValue: words[1].lowercased()) else {
                throw OptionError(source: "screen \(TerminalText.printable(words[1]))", problem: "expected on, off or auto")
            }
            command = .screen(state)
        case ["autostart"]:
            throw OptionError(source: "autostart", problem: "needs on or off: splashboard autostart on|off")
        case let words where words.count == 2 && words[0] == "autostart":
            switch words[1].lowercased() {
            case "on": command = .autostart(on: true)
            case "off": command = .autostart(on: false)
            default: throw OptionError(source: "autostart \(TerminalText.printable(words[1]))", problem: "expected on or off")
            }
        case ["feed"], ["feed", "check"]:
            throw OptionError(source: words.joined(separator: " "),
                              problem: "needs a feed: splashboard feed check URL|PATH [--json]")
        case let words where words.count == 3 && words[0] == "feed" && words[1] == "check":
            command = .feedCheck(feed: try feedArgument(words[2], source: "feed check", cwd: currentDirectory), json: json)
        case ["preview"]:
            throw OptionError(source: "preview",
                              problem: "needs a feed: splashboard preview URL|PATH --size WxH [--size WxH …] --out DIR")
        case let words where words.count == 2 && words[0] == "preview":
            guard let out else {
                throw OptionError(source: "preview", problem: "needs --out DIR: the folder the pictures are written to")
            }
            command = .preview(feed: try feedArgument(words[1], source: "preview", cwd: currentDirectory),
                               sizes: sizes.isEmpty ? Self.previewSizes : sizes,
                               out: absolute(out, cwd: currentDirectory))
        default:
            let first = words.first ?? ""
            var hint = NearestName.suggestion(for: first, among: ["run", "sync", "campaigns", "cache", "status", "screenshot", "screen", "autostart", "feed",
                                                                       "preview"])
                .map { "; did you mean \($0)?" } ?? ""
            if words.count >= 2, let near = NearestName.suggestion(for: words[1], among: [first == "cache" ? "clear" : "check"]),
               ["feed", "cache"].contains(first) {
                hint = "; did you mean \(first) \(near)?"
            }
            throw OptionError(source: TerminalText.printable(words.joined(separator: " ")),
                              problem: "unknown command\(hint.isEmpty ? "" : " (" + hint.dropFirst(2) + ")"); expected run, sync, campaigns, cache clear, status, "
                                  + "screenshot FILE.png, screen on|off|auto, autostart on|off, feed check FEED or preview FEED (see --help)")
        }
        switch command {
        case .campaigns, .status, .feedCheck: break
        default:
            if json {
                throw OptionError(source: "--json", problem: "only `splashboard campaigns`, `status` and `feed check` take --json")
            }
        }
        if case .campaigns = command {} else if thumbnails != nil {
            throw OptionError(source: "--thumbnails", problem: "only `splashboard campaigns` takes --thumbnails")
        }
        if case .preview = command {} else if out != nil {
            throw OptionError(source: "--out", problem: "only `splashboard preview` takes --out")
        }
        return command
    }

    /// The screens `preview` draws when no `--size` is given: landscape and portrait Full
    /// HD and the Raspberry Pi 7" display.
    public static let previewSizes = [Size(width: 1920, height: 1080), Size(width: 1080, height: 1920),
                                      Size(width: 800, height: 480)]

    private static func feedArgument(_ text: String, source: String, cwd: String) throws -> URL {
        try url(Setting(key: "feed", value: text, source: source), cwd: cwd, schemes: ["http", "https", "file"])
    }

    private static func parsedDefaults(_ command: Command, _ environment: [String: String]) throws -> Parsed {
        let defaults = DefaultPaths(environment: environment)
        var options = KioskOptions(dataDir: defaults.dataDir, cacheDir: defaults.cacheDir)
        options.runtimeDir = defaults.runtimeDir ?? defaults.dataDir
        return Parsed(command: command, options: options)
    }

    // MARK: value checks

    static func text(_ s: Setting) throws -> String {
        guard let v = s.value, !v.isEmpty else {
            throw OptionError(source: s.source, problem: "needs a value")
        }
        return v
    }

    /// A part of the screen schedule, read by `read`; its `ScreenScheduleError` is the option's.
    static func schedule(_ s: Setting, _ read: (String) throws -> ScreenSchedule) throws -> ScreenSchedule {
        let v = try text(s)
        do {
            return try read(v)
        } catch {
            throw OptionError(source: s.source, problem: TerminalText.printable(error.explained))
        }
    }

    static func integer(_ s: Setting, in range: ClosedRange<Int>) throws -> Int {
        let v = try text(s)
        guard let n = Int(v), range.contains(n) else {
            throw OptionError(source: s.source,
                              problem: "expected a whole number from \(range.lowerBound) to \(range.upperBound), got \"\(v)\"")
        }
        return n
    }

    static func choice<T: RawRepresentable & CaseIterable>(_ s: Setting, _: T.Type) throws -> T
    where T.RawValue == String {
        let v = try text(s)
        guard let c = T(rawValue: v) else {
            let names = T.allCases.map(\.rawValue).joined(separator: " or ")
            throw OptionError(source: s.source, problem: "expected \(names), got \"\(v)\"")
        }
        return c
    }

    static func flag(_ s: Setting) throws -> Bool {
        guard let v = s.value else { return true }
        switch v.lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: throw OptionError(source: s.source, problem: "expected true or false, got \"\(v)\"")
        }
    }

    static func size(_ s: Setting) throws -> Size {
        let v = try text(s)
        let parts = v.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (64...16_384).contains(w), (64...16_384).contains(h)
        else {
            throw OptionError(source: s.source, problem: "expected WIDTHxHEIGHT like 1920x1080 (64 to 16384 each), got \"\(v)\"")
        }
        return Size(width: w, height: h)
    }

    static func path(_ s: Setting, cwd: String) throws -> String {
        absolute(try text(s), cwd: cwd)
    }

    /// `path` made absolute against `cwd`, without its "." parts and doubled slashes
    /// ("./feed.json" → "/work/feed.json"), so that messages name the file as it is. ".."
    /// stays: a folder reached through a link has another parent.
    static func absolute(_ path: String, cwd: String) -> String {
        let whole = path.hasPrefix("/") ? path : (cwd.hasSuffix("/") ? cwd : cwd + "/") + path
        let parts = whole.split(separator: "/").filter { $0 != "." }
        let tidy = "/" + parts.joined(separator: "/")
        return whole.hasSuffix("/") && tidy != "/" ? tidy + "/" : tidy
    }

    static func directory(_ s: Setting, cwd: String) throws -> String {
        try path(s, cwd: cwd)
    }

    /// A URL with one of `schemes`; a plain path is taken as a file URL.
    static func url(_ s: Setting, cwd: String, schemes: Set<String>) throws -> URL {
        let v = try text(s)
        if !v.contains("://") {
            // "cdn.example.com/feed.json" or "127.0.0.1:8080/feed.json" is a web address
            // without its scheme, not a file in this folder.
            let looksLikeHost = SchemelessAddress.startsWithHost(v)
            if looksLikeHost, schemes.contains("http") {
                throw OptionError(source: s.source, problem: "\"\(v)\" looks like a web address without its scheme: write "
                                      + "https://\(v) or http://\(v) (or ./\(v) for a file in this folder)")
            }
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
