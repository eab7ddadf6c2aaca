import SplashCore

/// Whether this system boots to a desktop, read once from systemd's links.
enum DesktopCheck {
    static let boot = DesktopBoot(
        defaultTarget: symlinkTarget("/etc/systemd/system/default.target") ?? symlinkTarget("/usr/lib/systemd/system/default.target"),
        displayManager: symlinkTarget("/etc/systemd/system/display-manager.service"))

    /// The desktop's warning for a kiosk drawing on the console (`drm`, `fbdev`): there the
    /// desktop hides it. Nil in a window, and on a system that boots to the console.
    static func warning(driver: String) -> String? {
        ["drm", "fbdev"].contains(driver) ? boot.warning : nil
    }
}
