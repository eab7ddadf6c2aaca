import CSystem
import FoundationEssentials
import Glibc
import SplashCore

/// A screen on the console through a framebuffer device (`/dev/fb0`): the firmware's
/// framebuffer (efifb, vesafb, simplefb) before the GPU's driver has loaded, or the only
/// screen of a small SPI panel (fbtft). The mode, depth, pixel layout and line length are
/// the kernel's (`FBIOGET_VSCREENINFO`, `FBIOGET_FSCREENINFO`); the memory is mapped and
/// each frame packed into it (`FramebufferLayout`). Where the virtual screen holds two
/// frames, the frame not on the screen is written and then panned to (no tearing); else
/// the finished frame is copied in once.
///
/// When a KMS device with a screen appears (the GPU's driver has loaded and taken the
/// firmware's framebuffer over), `connectionChanged` says so and the kiosk moves to it.
final class FramebufferOutput: ScreenOutput {
    /// The device node, e.g. `/dev/fb0`.
    let devicePath: String
    /// The kernel's name for it, e.g. `EFI VGA`, `fb_ili9341`.
    let name: String
    let size: Size
    let layout: FramebufferLayout
    let driver = "fbdev"
    /// The kernel turns nothing on a framebuffer: `rotate` in the config is the whole turn.
    let orientation = Rotation.none

    private let fd: Int32
    private let memory: UnsafeMutableRawPointer
    private let memoryLength: Int
    private let lineLength: Int
    private var screen: fb_var_screeninfo
    /// Whether two frames fit the virtual screen and the driver pans between them.
    private var pans: Bool
    /// The frame on the screen (0 or 1) when panning.
    private var front = 0
    /// What the page written next lacks (two pages when panning, else the one shown).
    private var damage: BufferDamage
    /// The device's identity when opened: a device removed and another made under the
    /// same name is not this one.
    private let identity: (dev: UInt64, ino: UInt64)

    var description: String { "\(devicePath) \(name) \(size)" }

    private init(fd: Int32, path: String, name: String, screen: fb_var_screeninfo, layout: FramebufferLayout,
                 lineLength: Int, memory: UnsafeMutableRawPointer, memoryLength: Int, identity: (UInt64, UInt64)) {
        self.fd = fd
        devicePath = path
        self.name = name
        self.screen = screen
        self.layout = layout
        self.lineLength = lineLength
        self.memory = memory
        self.memoryLength = memoryLength
        self.identity = identity
        size = Size(width: Int(screen.xres), height: Int(screen.yres))
        pans = Int(screen.yres_virtual) >= 2 * Int(screen.yres) && memoryLength >= 2 * Int(screen.yres) * lineLength
        damage = BufferDamage(buffers: pans ? 2 : 1)
    }

    deinit {
        munmap(memory, memoryLength)
        close(fd)
    }

    /// Opens the framebuffer device at `path` and maps it.
    static func open(_ path: String) throws -> FramebufferOutput {
        let fd = Glibc.open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw DisplayError.noDisplay("no framebuffer at \(path): \(String(cString: strerror(errno)))") }
        var variable = fb_var_screeninfo()
        var fixed = fb_fix_screeninfo()
        guard splash_fb_var(fd, &variable) == 0, splash_fb_fix(fd, &fixed) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw DisplayError.noDisplay("\(path): not a framebuffer (\(reason))")
        }
        let name = withUnsafeBytes(of: fixed.id) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let layout = FramebufferLayout(
            bitsPerPixel: Int(variable.bits_per_pixel),
            red: .init(offset: Int(variable.red.offset), length: Int(variable.red.length)),
            green: .init(offset: Int(variable.green.offset), length: Int(variable.green.length)),
            blue: .init(offset: Int(variable.blue.offset), length: Int(variable.blue.length)))
        guard splash_fb_is_packed_truecolor(&fixed) != 0, layout.isSupported, variable.xres > 0, variable.yres > 0,
              Int(fixed.line_length) >= Int(variable.xres) * layout.bytesPerPixel,
              Int(fixed.smem_len) >= Int(fixed.line_length) * Int(variable.yres) else {
            close(fd)
            throw DisplayError.noDisplay("\(path) (\(name)): a \(variable.bits_per_pixel)-bit framebuffer the kiosk cannot "
                                         + "draw on (16, 24 or 32 bits of packed true colour are)")
        }
        let length = Int(fixed.smem_len)
        let mapped = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        guard let mapped, mapped != MAP_FAILED else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw DisplayError.noDisplay("\(path) (\(name)): cannot map it: \(reason)")
        }
        var st = stat()
        fstat(fd, &st)
        return FramebufferOutput(fd: fd, path: path, name: name, screen: variable, layout: layout,
                                 lineLength: Int(fixed.line_length), memory: mapped, memoryLength: length,
                                 identity: (UInt64(st.st_rdev), UInt64(st.st_ino)))
    }

    /// The display blanked (`FBIOBLANK`, powered down) or unblanked; the memory is kept.
    func setSignal(_ on: Bool) throws -> String? {
        guard splash_fb_blank(fd, on ? 0 : 1) == 0 else {
            throw DisplayError.sdl("\(on ? "unblanking" : "blanking") \(devicePath)", String(cString: strerror(errno)))
        }
        return "blank"
    }

    /// Nothing to put back but the pages: the other terminal's console drew into them, so
    /// the next frame is packed whole.
    func reassert() throws {
        damage.reset()
    }

    /// Packs what changed of `frame` into the frame not on the screen and pans to it, or
    /// — where the driver cannot pan — into the one on the screen. Panning, the page
    /// written last held the frame before the one on the screen: it lacks this frame's
    /// `damage` and the previous one's (nil: everything). Always true: the frame drawn on
    /// is the kiosk's own.
    @discardableResult
    func present(_ frame: Pixmap, damage: Rect?) throws -> Bool {
        let page = pans ? 1 - front : 0
        let whole = Rect(x: 0, y: 0, width: min(frame.width, size.width), height: min(frame.height, size.height))
        let packed = self.damage.toCopy(damage: damage, whole: whole)
        let source = frame.pixels.assumingMemoryBound(to: UInt8.self)
        let base = memory + page * size.height * lineLength
        for row in packed.y..<packed.maxY {
            let from = UnsafeRawPointer(source + row * frame.pitch + packed.x * 4)
                .assumingMemoryBound(to: UInt32.self)
            layout.pack(from, into: base + row * lineLength + packed.x * layout.bytesPerPixel, count: packed.width)
        }
        guard pans else { return true }
        var shown = screen
        shown.xoffset = 0
        shown.yoffset = UInt32(page * size.height)
        if splash_fb_pan(fd, &shown) == 0 {
            front = page
        } else {
            // A driver that will not pan after all: from now on the frame on the screen is written.
            pans = false
            self.damage.reset(buffers: 1)
            if page != 0 { try present(frame, damage: nil) }
        }
        return true
    }

    /// True when the device node is gone or is another device now (the firmware's
    /// framebuffer was removed when the GPU's driver loaded), or a KMS device with a
    /// connected screen has appeared: the kiosk then moves to that one.
    func connectionChanged() -> Bool {
        var st = stat()
        guard stat(devicePath, &st) == 0, UInt64(st.st_rdev) == identity.dev else { return true }
        return DRMDevice.candidates(requested: nil).contains { (try? DRMOutput.hasConnectedScreen($0)) == true }
    }
}
