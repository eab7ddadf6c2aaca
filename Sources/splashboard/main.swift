import Glibc
import CSystem
import FoundationEssentials
import SplashCore
import SplashServices

/// Prints one line to stderr and exits with `status`.
func fail(_ message: String, status: Int32) -> Never {
    fputs("splashboard: \(message)\n", stderr)
    exit(status)
}

// Pictures are decoded into buffers of several MiB. Keep them out of the heap so that a
// freed one goes straight back to the system: resident memory then follows what is on
// the screen instead of the largest it has ever been (glibc raises its threshold otherwise).
splash_set_mmap_threshold(1 << 20)

let environment = ProcessInfo.processInfo.environment
let parsed: OptionParser.Parsed
do {
    parsed = try OptionParser.parse(
        Array(CommandLine.arguments.dropFirst()),
        environment: environment,
        currentDirectory: FileManager.default.currentDirectoryPath,
        readFile: ConfigFileReader.text(at:), asRoot: getuid() == 0
    )
} catch {
    fail(error.explained, status: 2)
}

// Commands the network program runs say their warnings there (it parses the same line).
switch parsed.command {
case .sync, .feedCheck: break
default:
    for warning in parsed.warnings { fputs("splashboard: warning: \(TerminalText.printable(warning))\n", stderr) }
}

switch parsed.command {
case .help:
    print(OptionParser.usage)
case .version:
    print("splashboard \(Version.current)")
case .run:
    var options = parsed.options
    let networkArguments = TrialFolder.prepare(&options)
    RunCommand(options: options, environment: environment, networkArguments: networkArguments).run()
case .sync:
    // The kiosk of the data folder named: its feed, cache and groups, unless given here.
    let memo = KioskMemo(dataDir: parsed.options.dataDir).arguments(parsed.options)
    if !memo.isEmpty { noteKioskSettings(memo.filter { $0.hasPrefix("--") }) }
    DeviceCommands(options: parsed.options, environment: environment).sync(arguments: Array(CommandLine.arguments.dropFirst()) + memo)
case let .campaigns(json, thumbnails):
    exit(DeviceCommands(options: kioskOptions(parsed.options), environment: environment).campaigns(json: json, thumbnails: thumbnails))
case .cacheClear:
    exit(DeviceCommands(options: kioskOptions(parsed.options), environment: environment).clearCache())
// The control commands need only the data and runtime folders, not the kiosk's feed or cache.
case .status(let json):
    exit(ControlCommands(options: parsed.options).status(json: json))
case .screenshot(let path):
    exit(ControlCommands(options: parsed.options).screenshot(to: path))
case .screen(let state):
    exit(ControlCommands(options: parsed.options).screen(state))
case .feedCheck(_, let json):
    // Reading a feed speaks to the network: the network program does it; the titles are laid out here.
    exit(FeedCheckCommand(options: parsed.options, environment: environment).run(arguments: Array(CommandLine.arguments.dropFirst()),
                                                                                 json: json))
case .autostart(let on):
    exit(AutostartCommand(environment: environment).run(on: on))
case let .preview(feed, sizes, out):
    exit(PreviewCommand(options: parsed.options, environment: environment).run(feed: feed, sizes: sizes, out: out))
}
exit(0)

/// `options` with what the kiosk of the data folder named with --data-dir was started with
/// (`KioskMemo`), for what this command's line and the config file do not give; said in a note.
func kioskOptions(_ options: KioskOptions) -> KioskOptions {
    var options = options
    let taken = KioskMemo(dataDir: options.dataDir).apply(to: &options)
    if !taken.isEmpty { noteKioskSettings(taken.map { "--" + $0 }) }
    return options
}

/// One line on stderr: which settings came from the kiosk of the data folder.
func noteKioskSettings(_ names: [String]) {
    fputs("splashboard: note: \(names.joined(separator: ", ")) as the kiosk of this data folder was started with "
          + "(give them here to choose otherwise)\n", stderr)
}
