/// Whether the system boots to a desktop. There a display manager takes the screen, and the
/// kiosk service on tty1 is hidden behind the desktop.
public struct DesktopBoot: Equatable, Sendable {
    /// The boot's default target, as its symlink names it (`graphical.target`).
    public var defaultTarget: String?
    /// The display manager's unit, as `display-manager.service` links to it (`lightdm.service`).
    public var displayManager: String?

    public init(defaultTarget: String?, displayManager: String?) {
        self.defaultTarget = defaultTarget.map(Self.unitName)
        self.displayManager = displayManager.map(Self.unitName)
    }

    /// True when the system boots to a desktop: a display manager enabled and the
    /// default target graphical.
    public var bootsToDesktop: Bool { displayManager != nil && defaultTarget == "graphical.target" }

    /// One line for the install, `status` and the journal; nil on a console system.
    public var warning: String? {
        guard bootsToDesktop, let manager = displayManager else { return nil }
        return "this system boots to a desktop (\(manager)), which hides the kiosk on tty1: "
            + "boot to the console with 'sudo systemctl set-default multi-user.target' and reboot, "
            + "or run the kiosk in the desktop: 'splashboard autostart on' as the desktop's user, "
            + "then 'sudo systemctl disable splashboard'"
    }

    /// The unit's name from a path or a symlink's target.
    static func unitName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }
}
