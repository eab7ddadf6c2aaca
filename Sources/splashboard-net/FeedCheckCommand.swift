import Glibc
import FoundationEssentials
import SplashCore
import SplashFonts
import SplashNetwork
import SplashServices

/// `splashboard-net feed check FEED [--json]`: every problem with its place, then a summary;
/// exit 0 clean, 1 problems, 2 the feed could not be read. Opens no device data. With
/// `--json`, the report's wire form (`FeedCheckReport.wire`), which `splashboard feed check`
/// reads, adds the titles its screens would cut to and prints.
struct FeedCheckCommand {
    let options: KioskOptions
    let environment: [String: String]

    func run(feed: URL, json: Bool) -> Int32 {
        // A check writes nothing of the device's: as root, it runs as the service's network user.
        do {
            if let note = try PrivilegeDrop.leaveRoot(writing: nil) { fputs("note: \(note)\n", stderr) }
        } catch {
            fputs("splashboard: \(error.explained)\n", stderr)
            return 2
        }
        // The address rule of a sync of this feed: what it may lead to is what the kiosk's would.
        do {
            if let note = try AddressGuard.install(rule: options.privateAddresses, feed: feed).reason {
                fputs("warning: \(note)\n", stderr)
            }
        } catch {
            fputs("warning: the address guard did not start (\(error.explained)); pictures are fetched unchecked\n", stderr)
        }
        var check = FeedCheck(videoMaxBytes: options.videoMaxMB << 20)
        check.canDraw = GlyphFinder().canDraw
        // With --device-groups, what a device in those groups would show (its id is not this
        // machine's: only the groups named count).
        if !options.deviceGroups.isEmpty {
            check.device = DeviceGroups(names: options.deviceGroups, deviceID: options.deviceID)
        }
        check.knownGroups = options.knownGroups
        let report = check.run(feed, deviceZone: .current)
        // The display program asks for the wire form, and prints the report itself.
        if json {
            print(report.wire.encoded())
        } else {
            for line in report.lines { print(line) }
        }
        return report.exitStatus
    }
}
