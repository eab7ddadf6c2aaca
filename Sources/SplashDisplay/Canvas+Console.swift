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
        guard isConsole else { return .same }
        if suspended {
            // Back on the kiosk's terminal, but master could not be taken yet: again now.
            guard wantsScreensBack, takeBackScreens() else { return .same }
            return .opened(outputNames)
        }
        let canvases = [self] + others
        // Which screens changed, by identity only: a changed output must be gone (its CRTC
        // free) before its connector is set up again.
        var changed: Set<ObjectIdentifier> = []
        var hadScreens = false
        for screen in canvases.compactMap(\.console) {
            hadScreens = true
            if screen.connectionChanged() { changed.insert(ObjectIdentifier(screen)) }
        }
        let devices = openDevices
        let connected = DRMDevice.connectedScreens(requested: request.drm, open: devices)
        guard !changed.isEmpty || connected != lastConnected || !hadScreens else { return .same }
        lastConnected = connected
        let firstName = console?.name
        for canvas in canvases where canvas.console.map({ changed.contains(ObjectIdentifier($0)) }) == true {
            canvas.console = nil
        }
        let kept = canvases.compactMap(\.console)
        // The devices stay open (and their master held) while their outputs are set up again.
        guard let outputs = try? ConsoleScreens.openAll(request, keeping: kept, devices: devices) else {
            console = nil
            others = []
            return hadScreens ? .lost : .same
        }
        place(outputs, firstName: firstName)
        // Moving from a framebuffer to a DRM device, the terminal goes back to text before
        // the kiosk's first frame there: the console's own modeset comes first, not after it.
        holdTerminal()
        return .opened(outputNames)
    }

    /// Gives each screen its canvas: this one keeps its screen when it is still there, or
    /// the same connector set up again (`firstName`; its layout is the core's, its touch
    /// screens stay where they were), others keep theirs; new screens get new canvases.
    private func place(_ outputs: [any ConsoleScreen], firstName: String?) {
        let first = outputs.first { $0 === console } ?? outputs.first { $0.name == firstName } ?? outputs[0]
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
    /// last frames put back on the screens (the loop then redraws). False when a device's
    /// master could not be taken (another program holds it): the screens stay given up,
    /// and each rescan tries again.
    @discardableResult
    public func takeBackScreens() -> Bool {
        guard openDevices.values.allSatisfy({ $0.setMaster() }) else {
            wantsScreensBack = true
            return false
        }
        wantsScreensBack = false
        for canvas in [self] + others {
            canvas.suspended = false
            try? canvas.console?.reassert()
            if signalOff { _ = try? canvas.console?.setSignal(false) }
        }
        return true
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
