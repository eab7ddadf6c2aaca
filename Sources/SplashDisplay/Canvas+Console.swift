import CSDL2
import CX11
import Foundation
import SplashCore
import SplashServices

/// The console's screens followed: unplugged, plugged in, back, or in another mode.
extension Canvas {
    /// On the console: whether any screen went away, came back, was plugged in or changed
    /// its mode since the last look. Screens as they were stay set up (no modeset); a
    /// screen that changed is set up again; a new one gets a canvas of its own (`others`).
    /// With none connected the loop keeps running, and the next look tries again (any
    /// device with a screen, unless `--drm-device` names one).
    public func consoleChanged() -> ConsoleChange {
        guard isConsole, !suspended else { return .same }
        let canvases = [self] + others
        let screens = canvases.compactMap(\.console)
        let changed = screens.filter { $0.connectionChanged() }
        let connected = DRMDevice.connectedScreens(requested: request.drm, open: openDevices)
        guard !changed.isEmpty || connected != lastConnected || screens.isEmpty else { return .same }
        lastConnected = connected
        // The changed screens go first, so that their CRTCs are free to be set up again.
        for canvas in canvases where canvas.console.map({ screen in changed.contains { $0 === screen } }) == true {
            canvas.console = nil
        }
        let kept = canvases.compactMap(\.console)
        guard let outputs = try? ConsoleScreens.openAll(request, keeping: kept) else {
            console = nil
            others = []
            return screens.isEmpty ? .same : .lost
        }
        place(outputs)
        // Moving from a framebuffer to a DRM device, the terminal goes back to text before
        // the kiosk's first frame there: the console's own modeset comes first, not after it.
        holdTerminal()
        return .opened(outputNames)
    }

    /// Gives each screen its canvas: this one keeps its screen when it is still there (its
    /// layout is the core's), others keep theirs; new screens get new canvases.
    private func place(_ outputs: [any ConsoleScreen]) {
        let first = outputs.first { $0 === console } ?? outputs[0]
        adopt(first)
        var canvases: [Canvas] = []
        for output in outputs where output !== first {
            if let same = others.first(where: { $0.console === output }) {
                canvases.append(same)
            } else if let made = try? Canvas(consoleFrame: output.size, output: output, request: request,
                                              rotation: configuredRotation, shelf: shelf) {
                canvases.append(made)
            }
        }
        others = canvases
    }

    /// Draws on `output` from now on, turned as it asks (`refreshOutputSize` then makes
    /// the frame of its size).
    private func adopt(_ output: any ConsoleScreen) {
        console = output
        turn(to: configuredRotation.adding(output.orientation))
    }

    /// The index among the console's screens (0: this canvas's, then `others`) of the one
    /// called `name` (a connector, `HDMI-A-2`); 0 for none or nil.
    func screenIndex(named name: String?) -> Int {
        guard let name, let i = others.firstIndex(where: { $0.console?.name == name }) else { return 0 }
        return i + 1
    }

    /// The kiosk's terminal is being switched away from: each KMS device's master is
    /// given up (the other terminal's console can set its mode) and nothing is presented
    /// until `takeBackScreens`.
    public func giveUpScreens() {
        for canvas in [self] + others { canvas.suspended = true }
        for device in openDevices.values { device.dropMaster() }
    }

    /// The kiosk's terminal is shown again: master taken back on each KMS device and the
    /// last frames put back on the screens (the loop then redraws).
    public func takeBackScreens() {
        for device in openDevices.values { device.setMaster() }
        for canvas in [self] + others {
            canvas.suspended = false
            try? canvas.console?.reassert()
        }
    }

    /// The KMS devices the screens are on, by node.
    var openDevices: [String: DRMDevice] {
        var devices: [String: DRMDevice] = [:]
        for case let output as DRMOutput in ([self] + others).compactMap(\.console) {
            devices[output.devicePath] = output.device
        }
        return devices
    }

    /// What `consoleChanged` found.
    public enum ConsoleChange: Equatable {
        case same
        /// The screens went away and no other is connected.
        case lost
        /// Screens to draw on (again): device, connector and mode of each, the first this
        /// canvas's.
        case opened([String])
    }
}
