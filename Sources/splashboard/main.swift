import Foundation
import SplashCore
import SplashDisplay

/// Prints one line to stderr and exits with `status`.
func fail(_ message: String, status: Int32) -> Never {
    fputs("splashboard: \(message)\n", stderr)
    exit(status)
}

let environment = ProcessInfo.processInfo.environment
let parsed: OptionParser.Parsed
do {
    parsed = try OptionParser.parse(
        Array(CommandLine.arguments.dropFirst()),
        environment: environment,
        currentDirectory: FileManager.default.currentDirectoryPath,
        readFile: { path in
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            return try String(contentsOfFile: path, encoding: .utf8)
        }
    )
} catch {
    fail(error.localizedDescription, status: 2)
}

switch parsed.command {
case .help:
    print(OptionParser.usage)
    exit(0)
case .version:
    print("splashboard \(Version.current)")
    exit(0)
case .run:
    break
}

let options = parsed.options
var script: [ScriptStep] = []
if let path = options.script {
    do {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw OptionError(source: "--script", problem: "cannot read \(path)")
        }
        script = try ScriptStep.parse(text, path: path)
    } catch {
        fail(error.localizedDescription, status: 2)
    }
}
guard let assets = Assets.locate(environment: environment) else {
    fail("cannot find the bundled assets (default-splash.jpg); set SPLASHBOARD_ASSETS to their folder", status: 1)
}

let log = EventLog(format: options.effectiveLogFormat)
let clock = RunClock(mode: options.clock)

let fonts: FontBook
do {
    let face = try options.font.map { FontFace(path: $0, index: 0) } ?? FontLocator.chineseFont()
    fonts = try FontBook(face: face)
} catch {
    fail(error.localizedDescription, status: 1)
}

let canvas: Canvas
do {
    canvas = try Canvas(headless: options.headless, size: options.size, rotation: options.rotate)
} catch DisplayError.noDisplay(let reason) {
    fail(DisplayError.noDisplay(reason).localizedDescription, status: 2)
} catch {
    fail(error.localizedDescription, status: 1)
}

let feedURL = options.feed ?? assets.demoFeed
var loaded = LocalFeedCatalog.Loaded(catalog: [], message: nil, warnings: [])
do {
    loaded = try LocalFeedCatalog.load(feedURL)
} catch {
    log.emit(.error(message: "feed \(feedURL.absoluteString): \(error.localizedDescription)"), at: clock.uptime)
}
for warning in loaded.warnings {
    log.emit(.warning(message: warning), at: clock.uptime)
}

let settings = KioskSettings(countdown: options.countdown, fallback: options.fallback,
                             attractAfter: options.attractAfter, defaultImage: assets.defaultSplash)
let runner = KioskRunner(
    setup: .init(options: options, settings: settings, catalog: loaded.catalog, message: loaded.message,
                 script: script, ledger: nil),
    canvas: canvas, fonts: fonts, log: log, clock: clock
)
do {
    try runner.run()
} catch {
    fail(error.localizedDescription, status: 1)
}
exit(0)
