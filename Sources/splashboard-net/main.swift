import CSystem
import FoundationEssentials
import Glibc
import SplashCore
import SplashNetwork
import SplashServices

/// Prints one line to stderr and exits with `status`.
func fail(_ message: String, status: Int32) -> Never {
    fputs("splashboard: \(message)\n", stderr)
    exit(status)
}

// The network process: `serve` answers the display's requests (started by the kiosk, or by
// systemd on splashboard-net.socket); `sync` is `splashboard sync`, which runs this program.
let environment = ProcessInfo.processInfo.environment
var arguments = Array(CommandLine.arguments.dropFirst())
let serving = arguments.first == "serve"
if serving { arguments.removeFirst() }
if arguments.first == "run" { arguments.removeFirst() }
if arguments.contains("--help") || arguments.contains("-h") {
    print("""
    Usage: splashboard-net serve [options]   answer the kiosk's requests: feed syncs, pictures, poems
           splashboard-net sync [options]    one sync now (what `splashboard sync` runs)
           splashboard-net feed check FEED   validate a feed (what `splashboard feed check` runs)

    The network half of Splashboard: it alone speaks to the network, and it never draws.
    It takes the kiosk's options and config file (see splashboard --help).
    """)
    exit(0)
}

let parsed: OptionParser.Parsed
do {
    parsed = try OptionParser.parse(
        arguments, environment: environment, currentDirectory: FileManager.default.currentDirectoryPath,
        readFile: ConfigFileReader.text(at:), asRoot: getuid() == 0)
} catch {
    fail(error.explained, status: 2)
}

// The operator's commands say what was given but not used; the kiosk's own process
// (serve) leaves that to the display, which parsed the same settings.
if !serving { for warning in parsed.warnings { fputs("warning: \(TerminalText.printable(warning))\n", stderr) } }

switch (serving, parsed.command) {
case (true, .run):
    ServeCommand(options: parsed.options, environment: environment).run()
case (false, .sync):
    exit(SyncCommand(options: parsed.options, environment: environment).run())
case let (false, .feedCheck(feed, json)):
    exit(FeedCheckCommand(options: parsed.options, environment: environment).run(feed: feed, json: json))
case (false, .version), (true, .version):
    print("splashboard-net \(Version.current)")
default:
    fail("expected `serve` or `sync` (see splashboard-net --help)", status: 2)
}
exit(0)
