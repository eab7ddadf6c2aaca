import FoundationEssentials
import SplashCore
import SplashServices

/// The console's screens followed: unplugged, plugged in, back, or in another mode.
extension Screens {
    /// On the console: whether any screen went away, came back, was plugged in or changed
    /// its mode since the last look. Screens as they were stay set up (no modeset); a
    /// screen that changed is set up again; a new one gets a canvas of its own.
    /// With none connected the loop keeps running, and the next look tries again (any
    /// device with a screen, unless `--drm-device` names one).
    public func consoleChanged() -> ConsoleChange {
        guard let request = consoleRequest else { return .same }
        if first.suspended {
            // Back on the kiosk's terminal, but master could not be taken yet: again now.
            guard wantsScreensBack, takeBack() else { return .same }
            return .opened(names)
        }
        let canvases = all
        // Which screens changed, by identity only: a changed output must be gone (its CRTC
        // free) before its connector is set up again.
        var changed: Set<ObjectIdentifier> = []
        var hadScreens = false
        for screen in canvases.compactMap(\.output) {
            hadScreens = true
            if screen.connectionChanged() { changed.insert(ObjectIdentifier(screen)) }
        }
        let devices = openDevices
        let connected = DRMDevice.connectedScreens(requested: request.drm, open: devices)
        guard !changed.isEmpty || connected != lastConnected || !hadScreens else { return .same }
        lastConnected = connected
        let firstName = first.output?.name
        for canvas in canvases where canvas.output.map({ changed.contains(ObjectIdentifier($0)) }) == true {
            canvas.output = nil
        }
        let kept = canvases.compactMap(\.output)
        // The devices stay open (and their master held) while their outputs are set up again.
        guard let outputs = try? ConsoleScreens.openAll(request, keeping: kept, devices: devices) else {
            first.output = nil
            others = []
            return hadScreens ? .lost : .same
        }
        place(outputs, firstName: firstName)
        // Moving from a framebuffer to a DRM device, the terminal goes back to text before
        // the kiosk's first frame there: the console's own modeset comes first, not after it.
        holdTerminal()
        return .opened(names)
    }

    /// Gives each screen its canvas: the first keeps its screen when it is still there, or
    /// the same connector set up again (`firstName`; its layout is the core's, its touch
    /// screens stay where they were), others keep theirs; new screens get new canvases.
    private func place(_ outputs: [any ScreenOutput], firstName: String?) {
        let chosen = outputs.first { $0 === first.output } ?? outputs.first { $0.name == firstName } ?? outputs[0]
        first.adopt(chosen)
        var canvases: [Canvas] = []
        for output in outputs where output !== chosen {
            if let same = others.first(where: { $0.output === output }) {
                canvases.append(same)
            } else if let made = try? Canvas(consoleFrame: output.size, output: output,
                                              rotation: first.configuredRotation, shelf: first.shelf) {
                canvases.append(made)
            }
        }
        others = canvases
    }

    /// The index among the console's screens (0: the first, then `others`) of the one
    /// called `name` (a connector, `HDMI-A-2`); 0 for none or nil.
    func screenIndex(named name: String?) -> Int {
        guard let name, let i = others.firstIndex(where: { $0.output?.name == name }) else { return 0 }
        return i + 1
    }

    /// The kiosk's terminal is being switched away from: each KMS device's master is
    /// given up (the other terminal's console can set its mode) and nothing is presented
    /// until `takeBack`.
    public func giveUp() {
        for canvas in all { canvas.suspended = true }
        for device in openDevices.values { device.dropMaster() }
    }

    /// The kiosk's terminal is shown again: master taken back on each KMS device and the
    /// last frames put back on the screens (the loop then redraws). False when a device's
    /// master could not be taken (another program holds it): the screens stay given up,
    /// and each rescan tries again.
    @discardableResult
    public func takeBack() -> Bool {
        guard openDevices.values.allSatisfy({ $0.setMaster() }) else {
            wantsScreensBack = true
            return false
        }
        wantsScreensBack = false
        for canvas in all {
            canvas.suspended = false
            try? canvas.output?.reassert()
            if signalOff { _ = try? canvas.output?.setSignal(false) }
        }
        return true
    }

    /// The KMS devices the screens are on, by node.
    var openDevices: [String: DRMDevice] {
        var devices: [String: DRMDevice] = [:]
        for case let output as DRMOutput in all.compactMap(\.output) {
            devices[output.devicePath] = output.device
        }
        return devices
    }

    /// What `consoleChanged` found.
    public enum ConsoleChange: Equatable {
        case same
        /// The screens went away and no other is connected.
        case lost
        /// Screens to draw on (again): device, connector and mode of each, the first first.
        case opened([String])
    }
}
