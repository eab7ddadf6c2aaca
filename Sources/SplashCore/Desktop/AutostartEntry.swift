/// The XDG autostart entry that starts the kiosk in a desktop user's session. labwc (the
/// Raspberry Pi OS desktop), LXDE, GNOME and KDE start every entry in
/// `~/.config/autostart/` when the user logs in.
public struct AutostartEntry: Equatable, Sendable {
    /// The entry's file name in the autostart folder.
    public static let fileName = "splashboard.desktop"
    /// The program the session starts, as an absolute path.
    public var program: String

    public init(program: String) {
        self.program = program
    }

    /// The folder the entry goes in: `$XDG_CONFIG_HOME/autostart`, else `~/.config/autostart`.
    public static func folder(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/autostart" }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/.config/autostart"
    }

    /// The entry's text. Exec runs the kiosk with no arguments: it reads the system config,
    /// and its data and cache are the user's own.
    public var text: String {
        """
        [Desktop Entry]
        Type=Application
        Name=Splashboard
        Comment=Full-screen splash display for this kiosk
        Exec=\(Self.quotedExec(program))
        Terminal=false
        NoDisplay=true
        X-GNOME-Autostart-enabled=true

        """
    }

    /// A path as the Desktop Entry spec reads it in Exec: quoted when it needs to be.
    static func quotedExec(_ path: String) -> String {
        let plain = path.allSatisfy { $0.isLetter || $0.isNumber || "/._-+".contains($0) }
        if plain { return path }
        var quoted = "\""
        for c in path {
            if "\"`$\\".contains(c) { quoted += "\\\\" }
            quoted.append(c)
        }
        return quoted + "\""
    }
}
