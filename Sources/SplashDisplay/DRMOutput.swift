import CDRM
import CSDL2
import Foundation
import Glibc
import SplashCore

/// A screen on the console driven the way boot splashes drive it: KMS "dumb" buffers
/// through libdrm, no GPU stack (no GL, EGL, GBM or Mesa), on any KMS device including
/// `simpledrm` and QEMU's `bochs-drm`.
///
/// It picks the DRM device and connector that has a screen connected (or the device
/// given with `--drm-device`), sets the connector's preferred mode and double-buffers:
/// each frame, drawn by SDL's software renderer into a copy in ordinary memory, is
/// copied into the buffer not on screen and shown with a page flip (no tearing, no
/// black frame between screens). `connectionChanged()` cheaply rereads the connector's
/// state so an unplugged screen, or one that comes back in another mode, is noticed.
final class DRMOutput: ConsoleScreen {
    /// One dumb buffer, mapped into this process.
    private struct Buffer {
        var handle: UInt32
        var framebuffer: UInt32
        var pitch: Int
        var length: Int
        var pixels: UnsafeMutableRawPointer
    }

    /// The device node, e.g. `/dev/dri/card1`.
    let devicePath: String
    /// The connector's name, e.g. `Virtual-1`, `HDMI-A-1`.
    let connectorName: String
    /// The mode's size in pixels.
    let size: Size

    private let fd: Int32
    private let connectorID: UInt32
    private let crtcID: UInt32
    private var mode: drmModeModeInfo
    private var buffers: [Buffer] = []
    /// The buffer on screen (the other one is drawn into).
    private var front = 0
    private var modeSet = false
    private var flipPending = false
    private var canFlip = true

    let driver = "drm"

    /// A short description for the `started` event and the operator view.
    var description: String { "\(devicePath) \(connectorName) \(size)" }

    private init(fd: Int32, devicePath: String, connectorID: UInt32, connectorName: String, crtcID: UInt32,
                 mode: drmModeModeInfo) throws {
        self.fd = fd
        self.devicePath = devicePath
        self.connectorID = connectorID
        self.connectorName = connectorName
        self.crtcID = crtcID
        self.mode = mode
        size = Size(width: Int(mode.hdisplay), height: Int(mode.vdisplay))
        for _ in 0..<2 {
            buffers.append(try Self.makeBuffer(fd: fd, size: size, device: devicePath))
        }
    }

    deinit {
        for buffer in buffers {
            munmap(buffer.pixels, buffer.length)
            drmModeRmFB(fd, buffer.framebuffer)
            _ = splash_drm_destroy_dumb(fd, buffer.handle)
        }
        close(fd)
    }

    /// The device nodes to try, in order: the one asked for, else every `/dev/dri/card*`.
    static func candidates(requested: String?) -> [String] {
        if let requested { return [requested] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        return names.filter { $0.hasPrefix("card") }
            .sorted { (Int($0.dropFirst(4)) ?? 0) < (Int($1.dropFirst(4)) ?? 0) }
            .map { "/dev/dri/" + $0 }
    }

    /// Opens the first device, in `candidates` order, that has a connected screen.
    static func open(requested: String?) throws -> DRMOutput {
        var tried: [String] = []
        let paths = candidates(requested: requested)
        if paths.isEmpty { throw DisplayError.noDisplay("no DRM device in /dev/dri") }
        for path in paths {
            do {
                return try open(path: path)
            } catch let DisplayError.noDisplay(reason) {
                tried.append(reason)
            }
        }
        throw DisplayError.noDisplay(tried.joined(separator: "; "))
    }

    /// Whether the KMS device at `path` has a screen connected (opened, looked at, closed).
    static func hasConnectedScreen(_ path: String) throws -> Bool {
        let fd = Glibc.open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard splash_drm_has_dumb_buffers(fd) != 0, let resources = drmModeGetResources(fd) else { return false }
        defer { drmModeFreeResources(resources) }
        let res = resources.pointee
        for i in 0..<Int(res.count_connectors) {
            // Its last known state: nothing is probed (the driver probed when it loaded).
            guard let connector = drmModeGetConnectorCurrent(fd, res.connectors[i]) else { continue }
            defer { drmModeFreeConnector(connector) }
            if connector.pointee.connection == DRM_MODE_CONNECTED, connector.pointee.count_modes > 0 { return true }
        }
        return false
    }

    private static func open(path: String) throws -> DRMOutput {
        let fd = Glibc.open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw DisplayError.noDisplay("\(path): \(String(cString: strerror(errno)))") }
        guard splash_drm_has_dumb_buffers(fd) != 0, let resources = drmModeGetResources(fd) else {
            close(fd)
            throw DisplayError.noDisplay("\(path): not a KMS device with dumb buffers")
        }
        defer { drmModeFreeResources(resources) }
        let res = resources.pointee
        for i in 0..<Int(res.count_connectors) {
            guard let connector = drmModeGetConnector(fd, res.connectors[i]) else { continue }
            defer { drmModeFreeConnector(connector) }
            let c = connector.pointee
            guard c.connection == DRM_MODE_CONNECTED, c.count_modes > 0,
                  let mode = preferredMode(c), let crtc = crtc(for: c, fd: fd, resources: res)
            else { continue }
            let name = connectorName(c)
            do {
                return try DRMOutput(fd: fd, devicePath: path, connectorID: c.connector_id, connectorName: name,
                                     crtcID: crtc, mode: mode)
            } catch {
                close(fd)
                throw error
            }
        }
        close(fd)
        throw DisplayError.noDisplay("\(path): no screen connected")
    }

    private static func preferredMode(_ c: drmModeConnector) -> drmModeModeInfo? {
        let modes = UnsafeBufferPointer(start: c.modes, count: Int(c.count_modes))
        var preferred = modes.first { mode in
            var m = mode
            return splash_drm_mode_is_preferred(&m) != 0
        }
        if preferred == nil { preferred = modes.first }
        return preferred
    }

    /// The CRTC the connector's encoder drives now, else the first one it can drive.
    private static func crtc(for c: drmModeConnector, fd: Int32, resources res: drmModeRes) -> UInt32? {
        if c.encoder_id != 0, let encoder = drmModeGetEncoder(fd, c.encoder_id) {
            defer { drmModeFreeEncoder(encoder) }
            if encoder.pointee.crtc_id != 0 { return encoder.pointee.crtc_id }
        }
        for e in 0..<Int(c.count_encoders) {
            guard let encoder = drmModeGetEncoder(fd, c.encoders[e]) else { continue }
            defer { drmModeFreeEncoder(encoder) }
            for k in 0..<Int(res.count_crtcs) where encoder.pointee.possible_crtcs & (1 << UInt32(k)) != 0 {
                return res.crtcs[k]
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

    /// Shows `frame` (XRGB8888, the output's size): copies it into the buffer not on
    /// screen and flips to it. Waits first for the previous flip, so the buffer written is
    /// never the one being scanned out.
    func present(_ frame: UnsafeMutablePointer<SDL_Surface>) throws {
        waitForFlip()
        let back = 1 - front
        let buffer = buffers[back]
        let rows = min(Int(frame.pointee.h), size.height)
        let rowBytes = min(Int(frame.pointee.pitch), buffer.pitch, size.width * 4)
        let source = frame.pointee.pixels.assumingMemoryBound(to: UInt8.self)
        for row in 0..<rows {
            memcpy(buffer.pixels + row * buffer.pitch, source + row * Int(frame.pointee.pitch), rowBytes)
        }
        if modeSet, canFlip, splash_drm_page_flip(fd, crtcID, buffer.framebuffer) == 0 {
            flipPending = true
        } else {
            if modeSet { canFlip = false }
            var connector = connectorID
            guard drmModeSetCrtc(fd, crtcID, buffer.framebuffer, 0, 0, &connector, 1, &mode) == 0 else {
                throw DisplayError.sdl("showing a frame on \(devicePath)", String(cString: strerror(errno)))
            }
            modeSet = true
        }
        front = back
    }

    /// Waits (at most 100 ms) for the flip asked for last to be done.
    private func waitForFlip() {
        guard flipPending else { return }
        flipPending = false
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 100) > 0 else { return }
        var events = [UInt8](repeating: 0, count: 1024)
        _ = read(fd, &events, events.count)
    }

    /// Whether the screen went away, came back in another mode, or shows another client's
    /// frame since it was opened (reads the connector's last known state and the CRTC's
    /// frame; probes nothing).
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
        guard c.connection == DRM_MODE_CONNECTED, let now = Self.preferredMode(c) else { return true }
        return now.hdisplay != mode.hdisplay || now.vdisplay != mode.vdisplay
    }
}
