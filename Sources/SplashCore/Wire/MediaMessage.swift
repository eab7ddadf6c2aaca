import FoundationEssentials

/// The lines between the display and the media process while a clip plays, one per line
/// on their socket pair. The display asks with `play` (the clip's descriptor beside it);
/// the media process answers `ready` (the frame ring's shared memory beside it), then one
/// `frame` per decoded frame, each in a slot of the ring the display has given back with
/// `free`; `failed` says why it stops. Anything else is garbage, and ends the clip.
public enum MediaMessage: Equatable, Sendable {
    /// Display → media: scale the clip to `width`x`height` and play it (looped), in a ring
    /// of `slots` frames; `planar`: YUV frames (`FrameLayout.i420`) are welcome, the frame
    /// being shown whole.
    case play(width: Int, height: Int, slots: Int, planar: Bool = false)
    /// Media → display: the ring is ready, `slots` frames of `stride` bytes a line (of the
    /// first plane), `width`x`height` each, laid out as `layout` says.
    case ready(width: Int, height: Int, stride: Int, slots: Int, layout: FrameLayout = .bgra)
    /// Media → display: slot `slot` holds the frame to show at `pts` seconds after the first.
    case frame(slot: Int, pts: Double)
    /// Display → media: slot `slot` may be written again.
    case free(slot: Int)
    /// Media → display: playing stopped, and why.
    case failed(String)

    /// The most frames a ring holds.
    public static let maxSlots = 8
    /// The longest line either side sends.
    public static let maxLine = 512
    /// The largest frame, as the screen's largest layout (a 3840x2160 output turned).
    public static let maxSide = 4096

    /// The line, with its newline.
    public var line: String {
        switch self {
        case let .play(width, height, slots, planar):
            return "play \(width) \(height) \(slots)\(planar ? " i420" : "")\n"
        case let .ready(width, height, stride, slots, layout):
            return "ready \(width) \(height) \(stride) \(slots) \(layout.rawValue)\n"
        case let .frame(slot, pts): return "frame \(slot) \(String(cFormat: "%.6f", pts))\n"
        case .free(let slot): return "free \(slot)\n"
        case .failed(let why):
            let flat = why.replacing("\n", with: " ").prefix(Self.maxLine - 16)
            return "failed \(flat)\n"
        }
    }

    /// The message of `line` (without its newline), or nil when it is none: every number
    /// is held to what the other side could mean.
    public static func parse(_ line: String) -> MediaMessage? {
        guard line.utf8.count <= maxLine else { return nil }
        let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
        guard let word = parts.first else { return nil }
        let rest = parts.count > 1 ? parts[1] : ""
        let numbers = rest.split(separator: " ").map(String.init)
        func side(_ s: String) -> Int? { Int(s).flatMap { (1...maxSide).contains($0) ? $0 : nil } }
        func slot(_ s: String) -> Int? { Int(s).flatMap { (0..<maxSlots).contains($0) ? $0 : nil } }
        switch word {
        case "play" where numbers.count == 3 || (numbers.count == 4 && numbers[3] == FrameLayout.i420.rawValue):
            guard let w = side(numbers[0]), let h = side(numbers[1]), let n = Int(numbers[2]), (1...maxSlots).contains(n)
            else { return nil }
            return .play(width: w, height: h, slots: n, planar: numbers.count == 4)
        case "ready" where numbers.count == 5:
            guard let w = side(numbers[0]), let h = side(numbers[1]), let stride = Int(numbers[2]),
                  let layout = FrameLayout(rawValue: numbers[4]), layout.fits(width: w, height: h),
                  stride >= layout.minimumStride(width: w), stride <= maxSide * 4, stride % 2 == 0 || layout == .bgra,
                  let n = Int(numbers[3]), (1...maxSlots).contains(n) else { return nil }
            return .ready(width: w, height: h, stride: stride, slots: n, layout: layout)
        case "frame" where numbers.count == 2:
            guard let s = slot(numbers[0]), let pts = Double(numbers[1]), pts.isFinite, pts >= 0, pts < 1e7 else { return nil }
            return .frame(slot: s, pts: pts)
        case "free" where numbers.count == 1:
            return slot(numbers[0]).map { .free(slot: $0) }
        case "failed":
            return .failed(rest)
        default:
            return nil
        }
    }
}
