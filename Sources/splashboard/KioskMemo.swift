import FoundationEssentials
import SplashCore
import SplashServices

/// The settings a kiosk was started with that its commands need to see what it sees — its
/// feed, its picture cache, its device groups and id — kept in a small file of its own in the data
/// folder (`kiosk-settings`, 0600: read only when this user wrote it). A command given that
/// data folder with `--data-dir` takes from it what neither its command line nor the config
/// file gives: `campaigns --data-dir lobby/data` judges as the lobby's kiosk does.
struct KioskMemo {
    let file: String

    init(dataDir: String) {
        file = dataDir + "/kiosk-settings"
    }

    /// The settings kept, by name.
    static let keys = ["feed", "cache-dir", "device-groups", "device-id"]

    /// Keeps `options`' settings for the commands (when they changed). Losing it costs only
    /// a command's guess, so a failure to write is ignored.
    func write(_ options: KioskOptions) {
        var lines: [String] = []
        // A feed address with a secret in it (a user, a password, a query) is not written down.
        if let feed = options.feed, feed.storedName == feed.absoluteString { lines.append("feed = \(feed.absoluteString)") }
        lines.append("cache-dir = \(options.cacheDir)")
        if !options.deviceGroups.isEmpty { lines.append("device-groups = \(options.deviceGroups.joined(separator: ","))") }
        if let id = options.deviceID { lines.append("device-id = \(id)") }
        let text = lines.joined(separator: "\n") + "\n"
        guard UntrustedFile.ownText(file) != text else { return }
        UntrustedFile.writeOwn(text, to: file)
    }

    /// The same as command-line arguments, for a command another program runs (`sync`).
    func arguments(_ options: KioskOptions) -> [String] {
        var memo = options
        let taken = apply(to: &memo)
        var arguments: [String] = []
        for key in taken {
            switch key {
            case "feed": if let feed = memo.feed { arguments += ["--feed", feed.absoluteString] }
            case "cache-dir": arguments += ["--cache-dir", memo.cacheDir]
            case "device-groups": arguments += ["--device-groups", memo.deviceGroups.joined(separator: ",")]
            case "device-id": if let id = memo.deviceID { arguments += ["--device-id", id] }
            default: break
            }
        }
        return arguments
    }

    /// `options` with what the kiosk of its data folder was given, for the settings neither
    /// the command line nor the config file gives; the names taken, for a note.
    func apply(to options: inout KioskOptions) -> [String] {
        guard options.dataDirNamed, let text = UntrustedFile.ownText(file) else { return [] }
        var taken: [String] = []
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmed }
            guard parts.count == 2, Self.keys.contains(parts[0]), !options.givenSettings.contains(parts[0]) else { continue }
            // Only what differs from what the command would have used is taken (and said).
            switch parts[0] {
            case "feed":
                guard let url = URL(string: parts[1]), url.scheme != nil, url != options.feed else { continue }
                options.feed = url
            case "cache-dir" where parts[1].hasPrefix("/") && parts[1] != options.cacheDir:
                options.cacheDir = parts[1]
            case "device-groups":
                guard case .success(let names) = DeviceGroups.parse(parts[1]), !names.isEmpty, names != options.deviceGroups else { continue }
                options.deviceGroups = names
            case "device-id" where DeviceIdentity.isValid(parts[1]) && parts[1] != options.deviceID:
                options.deviceID = parts[1]
            default:
                continue
            }
            taken.append(parts[0])
        }
        return taken
    }
}
