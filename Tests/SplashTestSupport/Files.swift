import CSDL2
import CSDL2Image
import CWebP
import Foundation
import SplashCore
import SplashServices

/// The folder of programs `Binary` copied, removed at exit.
nonisolated(unsafe) private var copiedPrograms: String?

/// The `splashboard` binary built beside this test bundle.
public enum Binary {
    /// The kiosk program the tests run: the build's own — or, run as root from a checkout
    /// under a folder other users cannot enter (a home of mode 0700), a copy of it, its two
    /// helper programs and the assets in a folder anyone may enter, so that a run that leaves
    /// root (as nobody) can still start them.
    public static var path: String { resolved }

    private static let resolved: String = {
        let dir = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let built = dir.appendingPathComponent("splashboard").path
        guard getuid() == 0, !enterableByAnyone(dir.path) else { return built }
        let manager = FileManager.default
        // A folder of its own (made by mkdtemp: never a stale one), removed when the run ends.
        var template = Array("/tmp/splashboard-test-programs-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            fputs("SplashTestSupport: cannot make a folder for the programs run as nobody (\(String(cString: strerror(errno)))); "
                  + "runs that leave root will fail\n", stderr)
            return built
        }
        let copy = String(cString: made)
        copiedPrograms = copy
        atexit { if let copy = copiedPrograms { try? FileManager.default.removeItem(atPath: copy) } }
        do {
            for name in ["splashboard", "splashboard-net", "splashboard-media"] where manager.fileExists(atPath: dir.path + "/" + name) {
                try manager.copyItem(atPath: dir.path + "/" + name, toPath: copy + "/" + name)
            }
            if let assets = Assets.locate(environment: [:]) {
                try manager.copyItem(atPath: assets.folder, toPath: copy + "/assets")
            }
            _ = chmod(copy, 0o755)
            return copy + "/splashboard"
        } catch {
            fputs("SplashTestSupport: cannot copy the programs to \(copy) for runs as nobody (\(error)); runs that leave root will fail\n",
                  stderr)
            return built
        }
    }()

    /// Whether every folder from the root down to `path` lets others through (`o+x`).
    static func enterableByAnyone(_ path: String) -> Bool {
        var folder = URL(fileURLWithPath: path).standardizedFileURL
        while true {
            var st = stat()
            guard stat(folder.path, &st) == 0, st.st_mode & 0o001 != 0 else { return false }
            if folder.path == "/" { return true }
            folder.deleteLastPathComponent()
        }
    }
}

/// One finished run of the kiosk.
public struct KioskRun {
    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    public var status: Int32
    public var stdout: String
    public var stderr: String

    /// The JSON event lines, decoded.
    public var events: [[String: Any]] {
        stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    public func events(named name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }

    /// Event names in order.
    public var names: [String] { events.compactMap { $0["event"] as? String } }
}

/// `base` with a home of its own, so each run gets its own default data and cache folders
/// unless the test passes some.
public func kioskEnvironment(_ base: [String: String]) -> [String: String] {
    var env = base
    // A home of its own, unless the test gave one.
    let given = base["HOME"].flatMap { $0 == ProcessInfo.processInfo.environment["HOME"] ? nil : $0 }
    let home = given ?? NSTemporaryDirectory() + "splashboard-home-" + UUID().uuidString
    env["HOME"] = home
    env["XDG_STATE_HOME"] = home + "/state"
    env["XDG_CACHE_HOME"] = home + "/cache"
    // A control socket of its own, unless the test gave the runtime folder.
    if env["XDG_RUNTIME_DIR"] == ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] {
        env["XDG_RUNTIME_DIR"] = home + "/run"
    }
    return env
}

/// Runs the kiosk with `arguments` and waits (at most 60 s) for it to exit; `wrapper` is a
/// command to run it under (e.g. `unshare -rn`).
public func runKiosk(_ arguments: [String], environment: [String: String]? = nil, wrapper: [String] = []) throws -> KioskRun {
    let process = Process()
    if wrapper.isEmpty {
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = arguments
    } else {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = wrapper + [Binary.path] + arguments
    }
    process.environment = kioskEnvironment(environment ?? ProcessInfo.processInfo.environment)
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let killer = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: killer)
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    killer.cancel()
    return KioskRun(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                    stderr: String(decoding: errData, as: UTF8.self))
}

/// A fresh folder for one test.
public func temporaryFolder() throws -> String {
    let path = NSTemporaryDirectory() + "splashboard-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Writes a picture made of vertical bands of colour, as PNG or JPEG (by extension).
public func writeImage(_ path: String, width: Int, height: Int, bands: [RGBColor]) throws {
    guard let surface = SDL_CreateRGBSurfaceWithFormat(0, Int32(width), Int32(height), 32, SDL_PIXELFORMAT_RGB888.rawValue)
    else { throw DisplayTestError.sdl }
    defer { SDL_FreeSurface(surface) }
    for (i, c) in bands.enumerated() {
        let x0 = width * i / bands.count
        let x1 = width * (i + 1) / bands.count
        var r = SDL_Rect(x: Int32(x0), y: 0, w: Int32(x1 - x0), h: Int32(height))
        SDL_FillRect(surface, &r, SDL_MapRGB(surface.pointee.format, c.red, c.green, c.blue))
    }
    if path.hasSuffix(".webp") {
        // Through libwebp's own encoder (lossy, quality 95), from the surface's B, G, R bytes.
        let pitch = Int(surface.pointee.pitch)
        let source = surface.pointee.pixels.assumingMemoryBound(to: UInt8.self)
        var bgr = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<3 { bgr[(y * width + x) * 3 + c] = source[y * pitch + x * 4 + c] }
            }
        }
        var output: UnsafeMutablePointer<UInt8>?
        let size = WebPEncodeBGR(bgr, Int32(width), Int32(height), Int32(width * 3), 95, &output)
        guard size > 0, let output else { throw DisplayTestError.sdl }
        defer { WebPFree(output) }
        try Data(bytes: output, count: size).write(to: URL(fileURLWithPath: path))
        return
    }
    let ok = path.hasSuffix(".png") ? IMG_SavePNG(surface, path) : IMG_SaveJPG(surface, path, 95)
    guard ok == 0 else { throw DisplayTestError.sdl }
}

/// Writes a PNG of noise, which does not compress: about 3 bytes a pixel on disk.
public func writeNoisePNG(_ path: String, width: Int, height: Int, seed: UInt64) throws {
    guard let surface = SDL_CreateRGBSurfaceWithFormat(0, Int32(width), Int32(height), 24, SDL_PIXELFORMAT_RGB24.rawValue)
    else { throw DisplayTestError.sdl }
    defer { SDL_FreeSurface(surface) }
    var state = seed &* 6364136223846793005 &+ 1442695040888963407
    let pitch = Int(surface.pointee.pitch)
    let bytes = surface.pointee.pixels.assumingMemoryBound(to: UInt8.self)
    for y in 0..<height {
        for x in 0..<(width * 3) {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            bytes[y * pitch + x] = UInt8(truncatingIfNeeded: state >> 33)
        }
    }
    guard IMG_SavePNG(surface, path) == 0 else { throw DisplayTestError.sdl }
}

/// Writes a PNG of one colour at a uniform opacity (`alpha` 0…255).
public func writeTranslucentPNG(_ path: String, width: Int, height: Int, color: RGBColor, alpha: UInt8) throws {
    guard let surface = SDL_CreateRGBSurfaceWithFormat(0, Int32(width), Int32(height), 32, SDL_PIXELFORMAT_ARGB8888.rawValue)
    else { throw DisplayTestError.sdl }
    defer { SDL_FreeSurface(surface) }
    SDL_FillRect(surface, nil, SDL_MapRGBA(surface.pointee.format, color.red, color.green, color.blue, alpha))
    guard IMG_SavePNG(surface, path) == 0 else { throw DisplayTestError.sdl }
}

/// Writes a feed of campaigns next to their pictures and returns its path.
public func writeFeed(_ folder: String, _ json: String) throws -> String {
    let path = folder + "/feed.json"
    try json.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

public enum DisplayTestError: Error { case sdl, unreadable(String) }

/// A PNG read back for pixel checks.
public struct Snapshot {
    public let width: Int
    public let height: Int
    private let pixels: [UInt32]

    public init(_ path: String) throws {
        guard let loaded = IMG_Load(path) else { throw DisplayTestError.unreadable(path) }
        defer { SDL_FreeSurface(loaded) }
        guard let s = SDL_ConvertSurfaceFormat(loaded, SDL_PIXELFORMAT_ARGB8888.rawValue, 0) else {
            throw DisplayTestError.unreadable(path)
        }
        defer { SDL_FreeSurface(s) }
        width = Int(s.pointee.w)
        height = Int(s.pointee.h)
        let pitch = Int(s.pointee.pitch) / 4
        let base = s.pointee.pixels.assumingMemoryBound(to: UInt32.self)
        var px: [UInt32] = []
        px.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width { px.append(base[y * pitch + x]) }
        }
        pixels = px
    }

    public func color(_ x: Int, _ y: Int) -> RGBColor {
        let v = pixels[y * width + x]
        return RGBColor(red: UInt8(v >> 16 & 0xFF), green: UInt8(v >> 8 & 0xFF), blue: UInt8(v & 0xFF))
    }

    /// Pixels inside `rect` that differ between two pictures of the same size.
    public func differences(from other: Snapshot, in rect: Rect) -> Int {
        var n = 0
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX where pixels[y * width + x] != other.pixels[y * other.width + x] { n += 1 }
        }
        return n
    }

    /// Pixels inside `rect` that are far from `color`.
    public func count(in rect: Rect, differingFrom color: RGBColor, by tolerance: Int = 40) -> Int {
        var n = 0
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX where !self.color(x, y).isClose(to: color, tolerance: tolerance) { n += 1 }
        }
        return n
    }
}

extension RGBColor {
    public func isClose(to other: RGBColor, tolerance: Int = 12) -> Bool {
        abs(Int(red) - Int(other.red)) <= tolerance && abs(Int(green) - Int(other.green)) <= tolerance
            && abs(Int(blue) - Int(other.blue)) <= tolerance
    }
}

/// Lists a snapshot folder, sorted.
public func snapshots(_ dir: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted().map { dir + "/" + $0 }
}

public let red = RGBColor(red: 220, green: 30, blue: 30)
public let blue = RGBColor(red: 20, green: 60, blue: 220)
public let green = RGBColor(red: 20, green: 200, blue: 60)
public let magenta = RGBColor(red: 255, green: 0, blue: 255)

/// The bundled assets folder of the source tree.
public let assetsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("assets").path

/// A folder whose one campaign ("stored", a red picture) is already synced from a local
/// feed; `args` points a kiosk at it.
public struct StoredCampaign {
    public let folder: String
    public let feed: String
    public let args: [String]

    public init(showLimit: Int = 50) throws {
        folder = try temporaryFolder()
        try writeImage(folder + "/a.jpg", width: 320, height: 180, bands: [.init(red: 200, green: 40, blue: 40)])
        feed = try writeFeed(folder, #"[{"id": "stored", "picUrl": "a.jpg", "showTime": \#(showLimit)}]"#)
        args = ["--feed", feed, "--data-dir", folder + "/data", "--cache-dir", folder + "/cache"]
        let sync = try runKiosk(["sync"] + args)
        guard sync.status == 0 else { throw DisplayTestError.unreadable("sync: \(sync.stderr)") }
    }
}
