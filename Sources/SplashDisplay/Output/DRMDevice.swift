import CDRM
import FoundationEssentials
import Glibc
import SplashCore

/// One KMS device opened once and shared by the outputs on it (a Pi 4's two HDMI ports
/// are one device): only one descriptor of a device can be its DRM master, and two
/// outputs on it must not drive the same CRTC. Closed when its last output goes.
final class DRMDevice {
    /// The device node, e.g. `/dev/dri/card1`.
    let path: String
    let fd: Int32
    /// The CRTCs the outputs on this device drive.
    var crtcsInUse: Set<UInt32> = []
    /// The CRTCs with a page flip asked for and not done yet.
    private var flipsPending: Set<UInt32> = []
    /// Whether the device's driver said it has no use for dirty rectangles (ENOSYS): not asked again.
    var dirtyUnsupported = false

    /// The device number it had when opened.
    private let rdev: UInt64

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
        var st = stat()
        rdev = fstat(fd, &st) == 0 ? UInt64(st.st_rdev) : 0
    }

    /// Whether its node is still this device and it answers: a driver that went away and
    /// another whose card took the same name (`card0` again) is another device, to be
    /// opened afresh.
    var isStillThere: Bool { isSameNode && connectedScreens() != nil }

    /// Whether its node has the device number it had when opened.
    private var isSameNode: Bool {
        var st = stat()
        return stat(path, &st) == 0 && UInt64(st.st_rdev) == rdev
    }

    deinit { close(fd) }

    /// Whether the driver takes atomic commits (asked once, when the signal first goes off:
    /// the capability is this descriptor's from then on; legacy calls still work beside it).
    lazy var atomic: Bool = drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) == 0

    /// The id of `object`'s property called `name` (`ACTIVE` of a CRTC, `DPMS` of a connector).
    func property(_ name: String, of object: UInt32, type: UInt32) -> UInt32? {
        guard let props = drmModeObjectGetProperties(fd, object, type) else { return nil }
        defer { drmModeFreeObjectProperties(props) }
        for i in 0..<Int(props.pointee.count_props) {
            guard let prop = drmModeGetProperty(fd, props.pointee.props[i]) else { continue }
            defer { drmModeFreeProperty(prop) }
            let found = withUnsafeBytes(of: prop.pointee.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if found == name { return prop.pointee.prop_id }
        }
        return nil
    }

    /// Opens `path` when it is a KMS device that can make dumb buffers.
    static func open(_ path: String) throws -> DRMDevice {
        let fd = Glibc.open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw DisplayError.noDisplay("\(path): \(String(cString: strerror(errno)))") }
        guard splash_drm_has_dumb_buffers(fd) != 0 else {
            close(fd)
            throw DisplayError.noDisplay("\(path): not a KMS device with dumb buffers")
        }
        return DRMDevice(path: path, fd: fd)
    }

    /// The device nodes to look at, in order: the one asked for, else every `/dev/dri/card*`.
    static func candidates(requested: String?) -> [String] {
        if let requested { return [requested] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        return names.filter { $0.hasPrefix("card") }
            .sorted { (Int($0.dropFirst(4)) ?? 0) < (Int($1.dropFirst(4)) ?? 0) }
            .map { "/dev/dri/" + $0 }
    }

    /// The connectors of this device with a screen connected, by id, with their preferred
    /// size: their last known state, nothing probed (the driver probes on hotplug). Nil
    /// when the device no longer answers (its driver was removed).
    func connectedScreens() -> [UInt32: Size]? {
        guard let resources = drmModeGetResources(fd) else { return nil }
        defer { drmModeFreeResources(resources) }
        var found: [UInt32: Size] = [:]
        for i in 0..<Int(resources.pointee.count_connectors) {
            guard let connector = drmModeGetConnectorCurrent(fd, resources.pointee.connectors[i]) else { continue }
            defer { drmModeFreeConnector(connector) }
            let c = connector.pointee
            guard c.connection == DRM_MODE_CONNECTED, c.count_modes > 0 else { continue }
            found[c.connector_id] = Size(width: Int(c.modes[0].hdisplay), height: Int(c.modes[0].vdisplay))
        }
        return found
    }

    /// What every KMS device has connected, by device and connector: compared between
    /// looks to notice a screen plugged in or out. Devices already open are asked through
    /// `open`; others are opened for the look and closed.
    static func connectedScreens(requested: String?, open: [String: DRMDevice]) -> Set<String> {
        var seen: Set<String> = []
        for path in candidates(requested: requested) {
            // One look at a device already open: its node checked, its connectors read.
            let screens = open[path].flatMap { $0.isSameNode ? $0.connectedScreens() : nil }
                ?? (try? DRMDevice.open(path))?.connectedScreens() ?? [:]
            for (id, size) in screens { seen.insert("\(path)#\(id) \(size)") }
        }
        return seen
    }

    /// A page flip on `crtc` was asked for, with a completion event.
    func flipAsked(crtc: UInt32) { flipsPending.insert(crtc) }

    /// No flip on `crtc` is waited for any more (its screen is set up again): the events
    /// already queued are read and dropped, so that an old flip's is never taken for the
    /// next one's.
    func forgetFlip(crtc: UInt32) {
        flipsPending.remove(crtc)
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        var buffer = [UInt8](repeating: 0, count: 1024)
        while poll(&entry, 1, 0) > 0, entry.revents & Int16(POLLIN) != 0, read(fd, &buffer, buffer.count) > 0 {
            entry.revents = 0
        }
    }

    /// Waits (at most 100 ms) until the flip asked for on `crtc` is done, reading the
    /// device's events: those of the other CRTCs here are noted on the way, so an output's
    /// wait never takes its neighbour's event.
    func waitForFlip(crtc: UInt32) {
        guard flipsPending.contains(crtc) else { return }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        var buffer = [UInt8](repeating: 0, count: 1024)
        while flipsPending.contains(crtc) {
            entry.revents = 0
            guard poll(&entry, 1, 100) > 0 else { break }
            let got = read(fd, &buffer, buffer.count)
            guard got > 0 else { break }
            // struct drm_event { u32 type; u32 length; }, then for a flip's completion
            // (DRM_EVENT_FLIP_COMPLETE) struct drm_event_vblank, whose crtc_id is at 28.
            var at = 0
            while at + 8 <= got {
                let type = Self.word(buffer, at)
                let length = Int(Self.word(buffer, at + 4))
                guard length >= 8, at + length <= got else { break }
                if type == 0x02, length >= 32 {
                    let done = Self.word(buffer, at + 28)
                    // Drivers without crtc_id in the event (old kernels) say 0: the flip waited for.
                    flipsPending.remove(done == 0 ? crtc : done)
                }
                at += length
            }
        }
        flipsPending.remove(crtc)
    }

    private static func word(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }

    /// Gives up being the device's master (the console switched to another terminal);
    /// false when the kernel refused.
    @discardableResult
    func dropMaster() -> Bool { splash_drm_drop_master(fd) == 0 }

    /// Becomes the device's master again (the console switched back); false when another
    /// program holds it.
    @discardableResult
    func setMaster() -> Bool { splash_drm_set_master(fd) == 0 }
}
