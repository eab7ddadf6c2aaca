import FoundationEssentials
import Glibc

/// The backlights under `/sys/class/backlight` (the Raspberry Pi touch display's, a
/// laptop panel's): set to 0 while the screen is off, and back to what they were.
final class Backlight {
    /// The class folder (another in tests).
    let folder: String
    /// The brightness each had before it was turned off, by name.
    private var saved: [String: Int] = [:]

    init(folder: String = "/sys/class/backlight") {
        self.folder = folder
    }

    /// The backlights there are, by name.
    var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// Turns each backlight off (saving its brightness) or back on; returns what was done
    /// and what could not be, one line each.
    func turn(_ on: Bool) -> (done: [String], problems: [String]) {
        var done: [String] = []
        var problems: [String] = []
        for name in names {
            let base = folder + "/" + name
            guard let current = read(base + "/brightness") else { continue }
            let level: Int
            if on {
                // A kiosk restarted while dark finds 0: it lights at the panel's maximum.
                level = saved[name] ?? (current > 0 ? current : read(base + "/max_brightness") ?? 1)
                saved[name] = nil
            } else {
                if current > 0 { saved[name] = current }
                level = 0
            }
            if write(base + "/brightness", level) {
                done.append("backlight \(name) \(level)")
            } else {
                problems.append("cannot set \(base)/brightness to \(level): \(String(cString: strerror(errno))) "
                                + "(the splashboard group needs write access: the package's udev rule gives it)")
            }
        }
        return (done, problems)
    }

    private func read(_ path: String) -> Int? {
        (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { Int($0.trimmed) }
    }

    private func write(_ path: String, _ value: Int) -> Bool {
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)  // as a shell's `echo 0 >` opens it
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let text = Array("\(value)\n".utf8)
        return text.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == text.count
    }
}
