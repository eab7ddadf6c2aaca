import CSystem
import FoundationEssentials
import Glibc
import SplashCore

/// Touch screens, tablets, mice and keyboards on the console, read straight from the
/// kernel's evdev devices (`/dev/input/event*`) and handed to the loop as the events a
/// window gives (`ShellEvent`): touches and absolute pointers as touches (0…1 across the
/// screen), relative mice as clicks, keys as key presses. So the kiosk's input
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
    /// What the devices said since the loop last took it, in order.
    private var made: [ShellEvent] = []

    /// Takes what the devices said.
    func take() -> [ShellEvent] {
        defer { made.removeAll() }
        return made
    }
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

    /// Reads what `fd` has and keeps the events it makes (`take`); a device that went away is closed.
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
            } else if event.value == 1, let key = Self.key(code, ctrl: ctrlHeld) {
                made.append(.key(key))
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
        if let at = device.normalized {
            // An absolute pointer (touch screen, tablet): where it is across the screen it is on.
            made.append(.touch(down: down, x: at.x, y: at.y, screen: screenIndex(device.output)))
        } else {
            made.append(.click(down: down, x: Int(pointer.x), y: Int(pointer.y)))
        }
    }

    /// The kiosk's key for the evdev keys it answers to.
    private static func key(_ code: Int32, ctrl: Bool) -> Key? {
        switch code {
        case KEY_ESC: return .escape
        case KEY_SPACE: return .space
        case KEY_ENTER, KEY_KPENTER: return .enter
        case KEY_F2: return .operatorView
        case KEY_O: return ctrl ? .operatorView : .other
        case KEY_PAGEDOWN: return .pageDown
        case KEY_PAGEUP: return .pageUp
        case KEY_RIGHT: return .right
        case KEY_LEFT: return .left
        default: return nil
        }
    }
}
