extension OptionParser {
    /// The commands, as `--help` and the man page list them.
    public static let commands: [(synopsis: String, help: String)] = [
        ("splashboard [run] [options]", "run the kiosk (the default)"),
        ("splashboard sync [options]", "one sync now, refused pictures and clips checked again; prints a summary; "
         + "exit 0 ok, 1 failed"),
        ("splashboard campaigns [--json] [--thumbnails DIR]",
         "the stored campaigns: remaining shows, cached, eligible, the feed's warnings; --thumbnails writes their stored thumbnails as JPEG files"),
        ("splashboard cache clear", "empty the image cache (the ledger is kept)"),
        ("splashboard status [--json]", "ask the running kiosk what is on its screen, when it last synced, what is wrong"),
        ("splashboard screenshot FILE.png", "the running kiosk's screen, as a person sees it"),
        ("splashboard screen on|off|auto",
         "turn the running kiosk's screen on or off until its schedule next changes (for good with no schedule), or back to the schedule"),
        ("splashboard autostart on|off",
         "as a desktop's user: start the kiosk full-screen in that user's desktop session at login (an XDG autostart entry), or stop doing so"),
        ("splashboard feed check FEED [--json] [--device-groups NAMES] [--groups-known NAMES]",
         "validate a feed (a URL or a path) as a sync would, pictures included, touching no device data; exit 0 clean, 1 problems, 2 unreadable; "
             + "with --device-groups, what a device in those groups would show; --groups-known: the fleet's groups, any other one a feed names is a problem"),
        ("splashboard preview FEED [--size WxH …] [--device-groups NAMES] --out DIR",
         "each campaign's splash and detail screens at each size as PNGs, and a contact sheet, on a throwaway database (default sizes 1920x1080, 1080x1920, 800x480); "
             + "every campaign, or with --device-groups those a device in them would show"),
    ]

    /// The `--help` text, made from `commands` and `table`.
    public static var usage: String {
        var lines: [String] = []
        for (index, command) in commands.enumerated() {
            let lead = index == 0 ? "Usage: " : "       "
            lines.append(lead + command.synopsis)
            lines += wrap(command.help, width: 80).map { "           " + $0 }
        }
        lines += ["", "Full-screen splash display for kiosks: a campaign image with a 跳过 N countdown,",
                  "then a detail screen with a poetry panel.", "",
                  "Options (each may also be a `key = value` line in the config file):"]
        func list(_ group: OptionSpec.Group) {
            for spec in table where spec.group == group {
                let head = "  --\(spec.name)" + (spec.takesValue ? " \(spec.valueHint)" : "")
                var text = spec.help
                if let d = spec.defaultText { text += " (default: \(d))" }
                let body = wrap(text, width: 64)
                if head.count <= 26 {
                    lines.append(head + String(repeating: " ", count: 27 - head.count) + body[0])
                    lines += body.dropFirst().map { String(repeating: " ", count: 27) + $0 }
                } else {
                    lines.append(head)
                    lines += body.map { String(repeating: " ", count: 27) + $0 }
                }
            }
        }
        list(.commandLine)
        list(.kiosk)
        lines += ["", "Headless and test options:"]
        list(.headless)
        lines += ["", "  --help                   this text", "  --version                the version", "",
                  "Environment: SPLASHBOARD_ASSETS (folder of the bundled pictures, poems and demo feed),",
                  "SPLASHBOARD_NET (the network program), STATE_DIRECTORY, CACHE_DIRECTORY, XDG_RUNTIME_DIR.",
                  "See man splashboard."]
        return lines.joined(separator: "\n")
    }

    /// The man page's OPTIONS and HEADLESS OPTIONS entries (roff), made from `table`: the
    /// page in packaging/ is held to this by a test.
    public static var manPageOptions: String {
        func roff(_ text: String) -> String {
            text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
        }
        func entries(_ group: OptionSpec.Group) -> [String] {
            table.filter { $0.group == group }.flatMap { spec -> [String] in
                var text = spec.help.prefix(1).uppercased() + spec.help.dropFirst()
                if let d = spec.defaultText { text += " (default: \(d))" }
                let head = spec.takesValue
                    ? (spec.valueHint.contains("|") ? ".BR" : ".BI") + " \\-\\-\(roff(spec.name)) \" \(roff(spec.valueHint))\""
                    : ".B \\-\\-\(roff(spec.name))"
                return [".TP", head, roff(text) + "."]
            }
        }
        return (entries(.commandLine) + entries(.kiosk) + [".SH HEADLESS OPTIONS"] + entries(.headless)).joined(separator: "\n")
    }

    /// `text` broken into lines of at most `width` characters, between words.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        lines.append(line)
        return lines
    }
}
