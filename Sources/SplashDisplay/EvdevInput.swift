import CSDL2
import CSystem
import FoundationEssentials
import Glibc
import SplashCore

/// Touch screens, tablets, mice and keyboards on the console, read straight from the
/// kernel's evdev devices (`/dev/input/event*`) and handed to the loop as the SDL events
/// a window would have given: touches and absolute pointers as finger events (0…1 across
/// the screen), relative mice as mouse clicks, keys as key presses. So the kiosk's input
/// mapping, hit tests and rotation transform are the same on the console as in a window.
///
/// Absolute pointers are scaled by each axis's own range (`EVIOCGABS`): QEMU's virtio
/// tablet and the many single-touch USB panels that report as one land where they were
/// touched. A panel's `LIBINPUT_CALIBRATION_MATRIX` udev property is applied as libinput
/// would. With several screens, a device's touches land on the screen its `WL_OUTPUT`
/// udev property names (the first screen otherwise). Devices plugged in later are picked up by `rescan()`; unplugged ones are dropped.
final class EvdevInput {
    /// One open device and what it has reported since its last `SYN_REPORT`.
    private final class Device {
        let fd: Int32
        let path: String
        let rangeX: ClosedRange<Int32>?
        let rangeY: ClosedRange<Int32>?
        let multiTouchX: ClosedRange<Int32>?
        let multiTouchY: ClosedRange<Int32>?
        /// libinput's calibration matrix, from udev's database.
        let calibration: [Double]
        /// The screen the device belongs to, by connector name: its `WL_OUTPUT` udev
        /// property (Weston's and wlroots' convention); nil: the config's `touch-output`,
        /// else the first screen.
        let output: String?
        var x: Int32?
        var y: Int32?
        var down = false
        var pendingDown: Bool?
        var relative = (dx: 0, dy: 0)

        init(fd: Int32, path: String) {
            self.fd = fd
            self.path = path
            rangeX = Self.range(fd, UInt32(ABS_X))
            rangeY = Self.range(fd, UInt32(ABS_Y))
            multiTouchX = Self.range(fd, UInt32(ABS_MT_POSITION_X))
            multiTouchY = Self.range(fd, UInt32(ABS_MT_POSITION_Y))
            let properties = Self.udevProperties(of: fd)
            calibration = properties["LIBINPUT_CALIBRATION_MATRIX"].flatMap(AbsolutePointer.calibration(from:))
                ?? AbsolutePointer.identity
            output = properties["WL_OUTPUT"]
        }

        private static func range(_ fd: Int32, _ axis: UInt32) -> ClosedRange<Int32>? {
            var info = input_absinfo()
            guard splash_evdev_abs_info(fd, axis, &info) == 0, info.maximum > info.minimum else { return nil }
            return info.minimum...info.maximum
        }

        /// The device's udev properties (`E:` lines of udev's database entry).
        private static func udevProperties(of fd: Int32) -> [String: String] {
            var st = stat()
            guard fstat(fd, &st) == 0 else { return [:] }
            let major = (st.st_rdev >> 8) & 0xfff
            let minor = (st.st_rdev & 0xff) | ((st.st_rdev >> 12) & 0xfff00)
            guard let db = try? String(contentsOfFile: "/run/udev/data/c\(major):\(minor)", encoding: .utf8)
            else { return [:] }
            var properties: [String: String] = [:]
            for line in db.split(separator: "\n") where line.hasPrefix("E:") {
                guard let eq = line.firstIndex(of: "=") else { continue }
                properties[String(line[line.index(line.startIndex, offsetBy: 2)..<eq])] = String(line[line.index(after: eq)...])
            }
            return properties
        }

        /// Where the pointer is, 0…1 across the screen, calibrated; nil for relative devices.
        var normalized: (x: Double, y: Double)? {
            guard let x, let y, let rx = rangeX ?? multiTouchX, let ry = rangeY ?? multiTouchY else { return nil }
            return AbsolutePointer(rangeX: rx, rangeY: ry, calibration: calibration).normalized(x: x, y: y)
        }
    }

    private var devices: [String: Device] = [:]
    /// The relative mouse pointer, in output pixels.
    private var pointer = (x: 0.0, y: 0.0)
    private var ctrlHeld = false
    /// The screen's size in pixels, for relative mice.
    var outputSize: () -> (width: Int, height: Int)
    /// Which screen a device's touches land on, as an index in the kiosk's screens (0: the
    /// first), for the screen name it belongs to.
    var screenIndex: (String?) -> Int

    init(outputSize: @escaping () -> (width: Int, height: Int), screenIndex: @escaping (String?) -> Int = { _ in 0 }) {
        self.outputSize = outputSize
        self.screenIndex = screenIndex
        rescan()
    }

    deinit {
        for device in devices.values { close(device.fd) }
    }

    /// The open devices' descriptors, to wait on.
    var descriptors: [Int32] { devices.values.map(\.fd) }

    /// Opens the devices not open yet.
    func rescan() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/input")) ?? []
        for name in names where name.hasPrefix("event") {
            let path = "/dev/input/" + name
            guard devices[path] == nil else { continue }
            let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            if fd >= 0 { devices[path] = Device(fd: fd, path: path) }
        }
    }

    /// Reads what `fd` has and pushes the SDL events it makes; a device that went away is closed.
    func read(_ fd: Int32, hungUp: Bool) {
        guard let device = devices.values.first(where: { $0.fd == fd }) else { return }
        var events = [input_event](repeating: input_event(), count: 64)
        while true {
            let got = events.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if got <= 0 {
                if hungUp || (got < 0 && errno != EAGAIN && errno != EINTR) {
                    close(fd)
                    devices[device.path] = nil
                }
                return
            }
            for event in events.prefix(got / MemoryLayout<input_event>.stride) {
                handle(event, from: device)
            }
        }
    }

    private func handle(_ event: input_event, from device: Device) {
        switch Int32(event.type) {
        case EV_ABS:
            switch Int32(event.code) {
            case ABS_X: device.x = event.value
            case ABS_Y: device.y = event.value
            case ABS_MT_POSITION_X where device.rangeX == nil: device.x = event.value
            case ABS_MT_POSITION_Y where device.rangeY == nil: device.y = event.value
            default: break
            }
        case EV_REL:
            switch Int32(event.code) {
            case REL_X: device.relative.dx += Int(event.value)
            case REL_Y: device.relative.dy += Int(event.value)
            default: break
            }
        case EV_KEY:
            let code = Int32(event.code)
            if code == KEY_LEFTCTRL || code == KEY_RIGHTCTRL {
                ctrlHeld = event.value != 0
            } else if code == BTN_TOUCH || code == BTN_LEFT {
                device.pendingDown = event.value != 0
            } else if event.value == 1, let sym = Self.keycode(code) {
                var key = SDL_Event()
                key.type = SDL_KEYDOWN.rawValue
                key.key.keysym.sym = sym
                key.key.keysym.mod = ctrlHeld ? UInt16(KMOD_LCTRL.rawValue) : 0
                key.key.repeat = 0
                SDL_PushEvent(&key)
            }
        case EV_SYN where Int32(event.code) == SYN_REPORT:
            report(device)
        default:
            break
        }
    }

    /// A complete report from `device`: pointer motion and button changes become events.
    private func report(_ device: Device) {
        if device.relative != (0, 0) {
            let size = outputSize()
            pointer.x = min(max(pointer.x + Double(device.relative.dx), 0), Double(max(size.width - 1, 0)))
            pointer.y = min(max(pointer.y + Double(device.relative.dy), 0), Double(max(size.height - 1, 0)))
            device.relative = (0, 0)
        }
        guard let down = device.pendingDown, down != device.down else { return }
        device.pendingDown = nil
        device.down = down
        var event = SDL_Event()
        if let at = device.normalized {
            // An absolute pointer (touch screen, tablet): where it is across the screen.
            event.type = (down ? SDL_FINGERDOWN : SDL_FINGERUP).rawValue
            event.tfinger.touchId = SDL_TouchID(device.fd)
            // Which screen it was on, where a window's events say which window.
            event.tfinger.windowID = UInt32(screenIndex(device.output))
            event.tfinger.fingerId = 0
            event.tfinger.x = Float(at.x)
            event.tfinger.y = Float(at.y)
            event.tfinger.pressure = down ? 1 : 0
        } else {
            event.type = (down ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP).rawValue
            event.button.which = 0
            event.button.button = UInt8(SDL_BUTTON_LEFT)
            event.button.state = UInt8(down ? SDL_PRESSED : SDL_RELEASED)
            event.button.clicks = 1
            event.button.x = Int32(pointer.x)
            event.button.y = Int32(pointer.y)
        }
        SDL_PushEvent(&event)
    }

    /// The SDL key for the evdev keys the kiosk answers to.
    private static func keycode(_ code: Int32) -> SDL_Keycode? {
        switch code {
        case KEY_ESC: return SDL_Keycode(SDLK_ESCAPE.rawValue)
        case KEY_SPACE: return SDL_Keycode(SDLK_SPACE.rawValue)
        case KEY_ENTER: return SDL_Keycode(SDLK_RETURN.rawValue)
        case KEY_KPENTER: return SDL_Keycode(SDLK_KP_ENTER.rawValue)
        case KEY_F2: return SDL_Keycode(SDLK_F2.rawValue)
        case KEY_O: return SDL_Keycode(SDLK_o.rawValue)
        case KEY_PAGEDOWN: return SDL_Keycode(SDLK_PAGEDOWN.rawValue)
        case KEY_PAGEUP: return SDL_Keycode(SDLK_PAGEUP.rawValue)
        case KEY_RIGHT: return SDL_Keycode(SDLK_RIGHT.rawValue)
        case KEY_LEFT: return SDL_Keycode(SDLK_LEFT.rawValue)
        default: return nil
        }
    }
}
