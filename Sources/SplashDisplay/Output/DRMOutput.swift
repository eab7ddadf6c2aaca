import CDRM
import FoundationEssentials
import Glibc
import SplashCore

/// A screen on the console driven the way boot splashes drive it: KMS "dumb" buffers
/// through libdrm, no GPU stack (no GL, EGL, GBM or Mesa), on any KMS device including
/// `simpledrm` and QEMU's `bochs-drm`.
///
/// `openAll` finds every connector with a screen on every device (or on the device given
/// with `--drm-device`), each with a CRTC of its own and its mode (`ModeChoice`: the
/// config's `drm-mode`, the kernel's `video=`, the preferred one). Each output
/// double-buffers: a frame, drawn into a copy in ordinary memory (`Pixmap`), is copied into the buffer not on screen and shown with a page flip (no tearing,
/// no black frame between screens), then the changed rectangle is reported for displays
/// that update by hand (`drmModeDirtyFB`). `connectionChanged()` cheaply rereads the
/// connector's state so an unplugged screen, one back in another mode, a link the driver
/// marked bad or a CRTC another client took is noticed and set up again. The connector's
/// "panel orientation" turns the picture (`orientation`).
final class DRMOutput: ScreenOutput {
    /// One dumb buffer, mapped into this process.
    private struct Buffer {
        var handle: UInt32
        var framebuffer: UInt32
        var pitch: Int
        var length: Int
        var pixels: UnsafeMutableRawPointer
    }

    /// The device it is on, shared with the other outputs there.
    let device: DRMDevice
    /// The device node, e.g. `/dev/dri/card1`.
    var devicePath: String { device.path }
    /// The connector's name, e.g. `Virtual-1`, `HDMI-A-1`.
    let connectorName: String
    /// The mode's size in pixels.
    let size: Size
    /// The turn the panel's mounting asks for ("panel orientation").
    let orientation: Rotation

    let connectorID: UInt32
    private let crtcID: UInt32
    private var fd: Int32 { device.fd }
    private var mode: drmModeModeInfo
    private var buffers: [Buffer] = []
    /// The buffer on screen (the other one is drawn into).
    private var front = 0
    private var modeSet = false
    /// Whether a frame has been shown.
    private var presented = false
    private var canFlip = true
    /// What the buffer written next lacks.
    private var damage = BufferDamage(buffers: 2)
    /// The config's `drm-mode`, to choose the same way again when looking.
    private let wantedMode: DisplayMode?

    let driver = "drm"

    /// A short description for the `started` and `output` events and the operator view.
    var description: String {
        let turned = orientation == .none ? "" : " turned \(orientation.rawValue)"
        return "\(devicePath) \(connectorName) \(size)\(turned)" + (note.map { " (\($0))" } ?? "")
    }
    /// What the operator should know about this output's setup (a `drm-mode` it lacks).
    private(set) var note: String?

    var name: String { connectorName }

    private init(device: DRMDevice, connectorID: UInt32, connectorName: String, crtcID: UInt32,
                 mode: drmModeModeInfo, wanted: DisplayMode?, orientation: Rotation) throws {
        self.device = device
        wantedMode = wanted
        self.connectorID = connectorID
        self.connectorName = connectorName
        self.crtcID = crtcID
        self.mode = mode
        self.orientation = orientation
        size = Size(width: Int(mode.hdisplay), height: Int(mode.vdisplay))
        for _ in 0..<2 {
            buffers.append(try Self.makeBuffer(fd: device.fd, size: size, device: device.path))
        }
        device.crtcsInUse.insert(crtcID)
    }

    deinit {
        for buffer in buffers {
            munmap(buffer.pixels, buffer.length)
            drmModeRmFB(fd, buffer.framebuffer)
            _ = splash_drm_destroy_dumb(fd, buffer.handle)
        }
        device.crtcsInUse.remove(crtcID)
    }

    /// Every connector with a screen on the devices in `DRMDevice.candidates` order, each
    /// in its mode. Outputs in `keeping` whose screen is as it was stay as they are (no
    /// modeset); the rest are set up anew. Throws `noDisplay` with each device's reason
    /// when none has a screen.
    static func openAll(requested: String?, mode wanted: DisplayMode?, keeping: [DRMOutput],
                        devices: [String: DRMDevice] = [:]) throws -> [DRMOutput] {
        var tried: [String] = []
        let paths = DRMDevice.candidates(requested: requested)
        if paths.isEmpty { throw DisplayError.noDisplay("no DRM device in /dev/dri") }
        var outputs: [DRMOutput] = []
        for path in paths {
            let kept = keeping.filter { $0.devicePath == path }
            do {
                let device = try devices[path].flatMap({ $0.isStillThere ? $0 : nil }) ?? kept.first?.device
                    ?? DRMDevice.open(path)
                let found = try open(on: device, mode: wanted, keeping: kept)
                if found.isEmpty { tried.append("\(path): no screen connected") }
                outputs += found
            } catch let DisplayError.noDisplay(reason) {
                tried.append(reason)
            }
        }
        if outputs.isEmpty { throw DisplayError.noDisplay(tried.joined(separator: "; ")) }
        return outputs
    }

    /// Whether the KMS device at `path` has a screen connected (opened, looked at, closed).
    static func hasConnectedScreen(_ path: String) throws -> Bool {
        guard let device = try? DRMDevice.open(path) else { return false }
        return !(device.connectedScreens() ?? [:]).isEmpty
    }

    /// The outputs of `device`'s connected connectors; those in `keeping` that are as they
    /// were are kept.
    private static func open(on device: DRMDevice, mode wanted: DisplayMode?, keeping: [DRMOutput]) throws -> [DRMOutput] {
        guard let resources = drmModeGetResources(device.fd) else {
            throw DisplayError.noDisplay("\(device.path): not a KMS device")
        }
        defer { drmModeFreeResources(resources) }
        let res = resources.pointee
        var outputs: [DRMOutput] = []
        for i in 0..<Int(res.count_connectors) {
            let id = res.connectors[i]
            if let same = keeping.first(where: { $0.connectorID == id }) {
                outputs.append(same)
                continue
            }
            guard let connector = drmModeGetConnector(device.fd, id) else { continue }
            defer { drmModeFreeConnector(connector) }
            let c = connector.pointee
            guard c.connection == DRM_MODE_CONNECTED, c.count_modes > 0,
                  let mode = chooseMode(c, wanted: wanted), let crtc = crtc(for: c, on: device, resources: res)
            else { continue }
            let orientation = PanelOrientation(rawValue: enumProperty(device.fd, c.connector_id, "panel orientation") ?? "")
            // One screen that cannot be set up (no memory for its buffers) leaves the others be.
            guard let made = try? DRMOutput(device: device, connectorID: c.connector_id, connectorName: connectorName(c),
                                            crtcID: crtc, mode: mode, wanted: wanted,
                                            orientation: orientation?.rotation ?? .none)
            else { continue }
            if let wanted, lacksWantedMode(c, wanted: wanted) {
                made.note = "no \(wanted) mode for drm-mode; its own used"
            }
            outputs.append(made)
        }
        return outputs
    }

    /// A connector's enum property by name, as its value's name; nil when it has none.
    private static func enumProperty(_ fd: Int32, _ connector: UInt32, _ name: String) -> String? {
        var value = [CChar](repeating: 0, count: 64)
        guard splash_drm_connector_enum(fd, connector, name, &value, value.count) == 0 else { return nil }
        return String(cString: value)
    }

    /// The connector's modes as `ModeChoice` sees them.
    private static func modes(_ c: drmModeConnector) -> [ModeChoice.Mode] {
        UnsafeBufferPointer(start: c.modes, count: Int(c.count_modes)).map { info in
            var m = info
            return ModeChoice.Mode(size: Size(width: Int(m.hdisplay), height: Int(m.vdisplay)), refresh: Int(m.vrefresh),
                                   preferred: splash_drm_mode_is_preferred(&m) != 0,
                                   userDefined: splash_drm_mode_is_userdef(&m) != 0)
        }
    }

    private static func chooseMode(_ c: drmModeConnector, wanted: DisplayMode?) -> drmModeModeInfo? {
        guard let index = ModeChoice.pick(modes(c), override: wanted).index else { return nil }
        return c.modes[index]
    }

    /// Whether `drm-mode` asks for a mode the connector does not list.
    private static func lacksWantedMode(_ c: drmModeConnector, wanted: DisplayMode?) -> Bool {
        ModeChoice.pick(modes(c), override: wanted).overrideMissing
    }

    /// The CRTC the connector's encoder drives now, unless another output here has it,
    /// else the first free one it can drive.
    private static func crtc(for c: drmModeConnector, on device: DRMDevice, resources res: drmModeRes) -> UInt32? {
        if c.encoder_id != 0, let encoder = drmModeGetEncoder(device.fd, c.encoder_id) {
            defer { drmModeFreeEncoder(encoder) }
            let current = encoder.pointee.crtc_id
            if current != 0, !device.crtcsInUse.contains(current) { return current }
        }
        for e in 0..<Int(c.count_encoders) {
            guard let encoder = drmModeGetEncoder(device.fd, c.encoders[e]) else { continue }
            defer { drmModeFreeEncoder(encoder) }
            for k in 0..<Int(res.count_crtcs) where encoder.pointee.possible_crtcs & (1 << UInt32(k)) != 0 {
                if !device.crtcsInUse.contains(res.crtcs[k]) { return res.crtcs[k] }
            }
        }
        return nil
    }

    private static func connectorName(_ c: drmModeConnector) -> String {
        let type = drmModeGetConnectorTypeName(c.connector_type).map { String(cString: $0) } ?? "Unknown"
        return "\(type)-\(c.connector_type_id)"
    }

    private static func makeBuffer(fd: Int32, size: Size, device: String) throws -> Buffer {
        var handle: UInt32 = 0
        var pitch: UInt32 = 0
        var length: UInt64 = 0
        guard splash_drm_create_dumb(fd, UInt32(size.width), UInt32(size.height), &handle, &pitch, &length) == 0 else {
            throw DisplayError.noDisplay("\(device): cannot create a \(size) buffer: \(String(cString: strerror(errno)))")
        }
        var framebuffer: UInt32 = 0
        var offset: UInt64 = 0
        guard drmModeAddFB(fd, UInt32(size.width), UInt32(size.height), 24, 32, pitch, handle, &framebuffer) == 0,
              splash_drm_map_dumb(fd, handle, &offset) == 0
        else {
            _ = splash_drm_destroy_dumb(fd, handle)
            throw DisplayError.noDisplay("\(device): cannot set up a framebuffer: \(String(cString: strerror(errno)))")
        }
        let mapped = mmap(nil, Int(length), PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset))
        guard let mapped, mapped != MAP_FAILED else {
            drmModeRmFB(fd, framebuffer)
            _ = splash_drm_destroy_dumb(fd, handle)
            throw DisplayError.noDisplay("\(device): cannot map a framebuffer: \(String(cString: strerror(errno)))")
        }
        return Buffer(handle: handle, framebuffer: framebuffer, pitch: Int(pitch), length: Int(length), pixels: mapped)
    }

    /// Shows `frame` (XRGB8888, the output's size): copies what changed into the buffer
    /// not on screen and flips to it, then says what changed to a display that updates by
    /// hand. That buffer last held the frame before the one on screen, so what it lacks is
    /// this frame's `damage` and the previous one's (nil: everything). Waits first for the
    /// previous flip, so the buffer written is never the one being scanned out. Always
    /// true: the frame drawn on is the kiosk's own.
    @discardableResult
    func present(_ frame: Pixmap, damage: Rect?) throws -> Bool {
        device.waitForFlip(crtc: crtcID)
        let back = 1 - front
        let buffer = buffers[back]
        let whole = Rect(x: 0, y: 0, width: min(frame.width, size.width), height: min(frame.height, size.height))
        let copied = self.damage.toCopy(damage: damage, whole: whole)
        // A first frame drawn in the buffer itself is there already.
        if frame.pixels != buffer.pixels {
            let source = frame.pixels.assumingMemoryBound(to: UInt8.self)
            let pitch = frame.pitch
            for row in copied.y..<copied.maxY {
                memcpy(buffer.pixels + row * buffer.pitch + copied.x * 4, source + row * pitch + copied.x * 4, copied.width * 4)
            }
        }
        var flipped = false
        if modeSet, canFlip {
            if splash_drm_page_flip(fd, crtcID, buffer.framebuffer) == 0 {
                device.flipAsked(crtc: crtcID)
                flipped = true
            } else if errno != EBUSY {
                // A driver without flips: from now on every frame is set with a modeset.
                canFlip = false
            }
        }
        if !flipped { try setMode(buffer.framebuffer) }
        front = back
        presented = true
        // A flip shows a whole new buffer, which a display that updates by hand takes whole;
        // after a modeset it is told the rectangle that changed.
        if !flipped, !device.dirtyUnsupported,
           splash_drm_dirty(fd, buffer.framebuffer, UInt16(clamping: copied.x), UInt16(clamping: copied.y),
                            UInt16(clamping: copied.maxX), UInt16(clamping: copied.maxY)) != 0,
           errno == ENOSYS || errno == EOPNOTSUPP || errno == EINVAL {
            device.dirtyUnsupported = true
        }
        return true
    }

    /// The buffer the first present will show, before anything has been shown: never the
    /// one being scanned out.
    func bufferForFirstFrame() -> Pixmap? {
        guard !presented else { return nil }
        let buffer = buffers[1 - front]
        return Pixmap(borrowing: buffer.pixels, width: size.width, height: size.height, pitch: buffer.pitch, format: .xrgb32)
    }

    private func setMode(_ framebuffer: UInt32) throws {
        var connector = connectorID
        guard drmModeSetCrtc(fd, crtcID, framebuffer, 0, 0, &connector, 1, &mode) == 0 else {
            throw DisplayError.sdl("showing a frame on \(devicePath) \(connectorName)", String(cString: strerror(errno)))
        }
        modeSet = true
    }

    /// The CRTC made inactive (or active again) by one atomic commit, its mode and frame
    /// kept; on a driver without atomic commits, the connector's legacy DPMS property.
    func setSignal(_ on: Bool) throws -> String? {
        device.forgetFlip(crtc: crtcID)
        if device.atomic, let active = device.property("ACTIVE", of: crtcID, type: UInt32(DRM_MODE_OBJECT_CRTC)),
           let request = drmModeAtomicAlloc() {
            defer { drmModeAtomicFree(request) }
            if drmModeAtomicAddProperty(request, crtcID, active, on ? 1 : 0) >= 0,
               drmModeAtomicCommit(fd, request, UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET), nil) == 0 {
                return "atomic"
            }
        }
        // Not lit again: the next frame is set with a modeset, which lights it (a flip on an
        // inactive CRTC would fail, and flips would be given up for good).
        if on { modeSet = false }
        guard let dpms = device.property("DPMS", of: connectorID, type: UInt32(DRM_MODE_OBJECT_CONNECTOR)) else {
            throw DisplayError.sdl("turning the signal \(on ? "on" : "off") on \(devicePath) \(connectorName)",
                                   "neither an atomic commit nor a DPMS property")
        }
        guard drmModeConnectorSetProperty(fd, connectorID, dpms, UInt64(on ? DRM_MODE_DPMS_ON : DRM_MODE_DPMS_OFF)) == 0 else {
            throw DisplayError.sdl("turning the signal \(on ? "on" : "off") on \(devicePath) \(connectorName)",
                                   String(cString: strerror(errno)))
        }
        return "dpms"
    }

    /// The frame on the screen put back with a modeset: after a switch back from another
    /// virtual terminal, whose console had the CRTC meanwhile.
    func reassert() throws {
        device.forgetFlip(crtc: crtcID)
        damage.reset()
        try setMode(buffers[front].framebuffer)
    }

    /// Whether the screen went away, came back in another mode, shows another client's
    /// frame, or its link was marked bad by the driver, since it was set up (reads the
    /// connector's last known state and the CRTC's frame; probes nothing).
    func connectionChanged() -> Bool {
        // Another client (the kernel's own console when a driver loads, another program)
        // set the screen to a frame of its own: the kiosk's is put back.
        if modeSet, let crtc = drmModeGetCrtc(fd, crtcID) {
            defer { drmModeFreeCrtc(crtc) }
            if !buffers.contains(where: { $0.framebuffer == crtc.pointee.buffer_id }) { return true }
        }
        guard let connector = drmModeGetConnectorCurrent(fd, connectorID) else { return true }
        defer { drmModeFreeConnector(connector) }
        let c = connector.pointee
        guard c.connection == DRM_MODE_CONNECTED, let now = Self.chooseMode(c, wanted: wantedMode) else { return true }
        // A link the driver marked bad (DisplayPort after a failed training) is set up anew.
        if Self.enumProperty(fd, connectorID, "link-status") == "Bad" { return true }
        return now.hdisplay != mode.hdisplay || now.vdisplay != mode.vdisplay || now.vrefresh != mode.vrefresh
    }
}
