import FoundationEssentials
import SplashCore

/// Turns the screens off and on by the means `screen-off` names, in its order (on again in
/// the opposite order, so a TV wakes to a signal), each where the device has it:
/// HDMI-CEC (`CECAdapter`), the display signal (each screen's own: a CRTC made inactive,
/// a framebuffer blanked, DPMS under X11) and the backlights (`Backlight`). A means that fails is said,
/// and the next still goes on.
public final class ScreenSwitch {
    /// The means, in order.
    let methods: [ScreenOffMethod]
    private let cecFolder: String
    private let backlight: Backlight
    /// A file that exists while the means have the screen dark, so that the next run
    /// knows a stop left it so (`KioskSettings.screenLeftDark`); nil: none kept.
    let marker: String?
    /// The marker's name in the data folder.
    public static let markerName = "screen-dark"

    /// What one change did, and what went wrong, one line each.
    struct Report: Equatable {
        var done: [String] = []
        var problems: [String] = []
    }

    init(methods: [ScreenOffMethod], marker: String? = nil, cecFolder: String = "/dev",
         backlightFolder: String = "/sys/class/backlight") {
        self.methods = methods
        self.marker = marker
        self.cecFolder = cecFolder
        backlight = Backlight(folder: backlightFolder)
    }

    /// Turns `screens` on or off.
    func turn(_ on: Bool, screens: Screens) -> Report {
        var report = Report()
        for method in on ? methods.reversed() : methods {
            switch method {
            case .cec: cec(on, &report)
            case .signal: signal(on, screens: screens, &report)
            case .backlight:
                let (done, problems) = backlight.turn(on)
                report.done += done
                report.problems += problems
            }
        }
        if let marker {
            if on {
                try? FileManager.default.removeItem(atPath: marker)
            } else if !FileManager.default.createFile(atPath: marker, contents: nil) {
                report.problems.append("cannot write \(marker): a restart while dark would not know to light the screen")
            }
        }
        return report
    }

    /// Whether a run left the screen dark, by the marker in `dataDir`.
    public static func leftDark(dataDir: String) -> Bool {
        FileManager.default.fileExists(atPath: dataDir + "/" + markerName)
    }

    private func cec(_ on: Bool, _ report: inout Report) {
        let (adapters, notes) = CECAdapter.openAll(folder: cecFolder)
        report.problems += notes.map { "HDMI-CEC: \($0)" }
        let next = methods.drop { $0 != .cec }.dropFirst().map(\.rawValue)
        let fallback = next.isEmpty ? "nothing else is set in screen-off"
            : "\(next.joined(separator: " and ")) still go\(next.count == 1 ? "es" : "") \(on ? "on" : "off")"
        for adapter in adapters {
            let what = on ? "<Image View On>" : "<Standby>"
            switch on ? adapter.wake() : adapter.standby() {
            case .done(let tries):
                report.done.append("cec \(adapter.path) \(what)" + (tries > 1 ? " (acknowledged at try \(tries))" : ""))
            case .partly(let why):
                report.done.append("cec \(adapter.path) \(what)")
                report.problems.append("HDMI-CEC: \(why)")
            case .failed(let why):
                report.problems.append("HDMI-CEC: \(why); \(fallback)")
            }
        }
    }

    private func signal(_ on: Bool, screens: Screens, _ report: inout Report) {
        for result in screens.setSignal(on) {
            switch result {
            case .success(let done): report.done.append(done)
            case .failure(let error): report.problems.append("the display signal: \(error.explained)")
            }
        }
    }
}
