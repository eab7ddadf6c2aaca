import Glibc
import SplashCore

/// Whether this system boots to a desktop, read once from systemd's links.
enum DesktopCheck {
    static let boot = DesktopBoot(
        defaultTarget: link("/etc/systemd/system/default.target") ?? link("/usr/lib/systemd/system/default.target"),
        displayManager: link("/etc/systemd/system/display-manager.service"))

    /// The desktop's warning for a kiosk drawing on the console (`drm`, `fbdev`): there the
    /// desktop hides it. Nil in a window, and on a system that boots to the console.
    static func warning(driver: String) -> String? {
        ["drm", "fbdev"].contains(driver) ? boot.warning : nil
    }

    /// Where the symlink at `path` points; nil when it is none.
    private static func link(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
