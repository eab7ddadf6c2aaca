import CFFmpeg
import CSystem
import FoundationEssentials
import Glibc
import SplashCore
import SplashServices

/// The media process's side of a clip being played (`MediaMessage`): the display's `play`
/// comes with the clip's descriptor; the clip is opened, the process locked down, the
/// frame ring made in shared memory and passed back with `ready`; then frames are decoded,
/// scaled into free slots and announced with their times, the clip looped, until the
/// display hangs up. Any failure is said with `failed` and ends the process.
public final class MediaServer {
    let socket: Int32
    private var pending: [UInt8] = []

    /// Decoding threads while playing: two (each of FFmpeg's frame threads holds frames of
    /// its own: at 1080p, 7 MiB a thread), enough for 1080p30 H.264 in software here.
    static let decoderThreads: Int32 = 2

    /// Serves the display on `socket`.
    public init(socket: Int32) {
        self.socket = socket
    }

    /// Runs until the display hangs up (0) or playing fails (1).
    public func run() -> Int32 {
        do {
            try serve()
            return 0
        } catch let error as MediaError {
            say(.failed(error.explained))
            return 1
        } catch {
            return 0  // the display hung up
        }
    }

    struct HungUp: Error {}

    private func serve() throws {
        // The request and the clip's descriptor.
        var clipFD: Int32 = -1
        var buffer = [UInt8](repeating: 0, count: MediaMessage.maxLine)
        let got = buffer.withUnsafeMutableBytes { splash_receive_with_fd(socket, $0.baseAddress, $0.count, &clipFD) }
        guard got > 0 else { throw HungUp() }
        pending = Array(buffer.prefix(got))
        guard clipFD >= 0, let line = nextLine(), case let .play(width, height, slots, planar) = MediaMessage.parse(line) else {
            throw MediaError.setup("the display's request was not understood")
        }
        try MediaSandbox.limitMemory()
        // Locked down before a byte of the clip is read, whatever devices the kernel has: a
        // V4L2 decoder is opened first and handed to FFmpeg under the filter, then closed if
        // unused.
        let broker = try MediaSandbox.lockDown(sharingFrames: true, handingOut: DecoderDevices().handouts)
        let input = try MediaInput(fd: clipFD)
        let decoder = try VideoDecoder(input, hardware: broker != nil, threads: MediaServer.decoderThreads)
        broker?.finish()
        // Planar YUV where the display takes it and the frames have no transparency: 12 bits
        // a pixel in the ring rather than 32, and less to scale.
        let layout: FrameLayout = planar && !decoder.hasAlpha && input.container != "gif"
            && FrameLayout.i420.fits(width: width, height: height)
            ? .i420 : .bgra
        let stride = layout.minimumStride(width: width)
        let slotBytes = layout.slotBytes(stride: stride, height: height)
        let ring = splash_shared_memory("splashboard-frames", slotBytes * slots)
        guard ring >= 0 else { throw MediaError.setup("no shared memory for frames: \(String(cString: strerror(errno)))") }
        guard let base = mmap(nil, slotBytes * slots, PROT_READ | PROT_WRITE, MAP_SHARED, ring, 0), base != MAP_FAILED else {
            throw MediaError.setup("cannot map the frame ring: \(String(cString: strerror(errno)))")
        }
        let ready = MediaMessage.ready(width: width, height: height, stride: stride, slots: slots, layout: layout).line
        let sent = ready.withCString { splash_send_with_fd(socket, $0, strlen($0), ring) }
        guard sent > 0 else { throw HungUp() }
        close(ring)
        let scaler = FrameScaler(width: width, height: height, format: layout == .i420 ? AV_PIX_FMT_YUV420P : AV_PIX_FMT_BGRA)
        var free = Set(0..<slots)
        var offset = 0.0
        var last = 0.0
        var shownAny = false
        // How long the last frame stays up before the loop's first: its own length (a GIF's
        // delay), else one frame at the stream's rate.
        var lastLength = 1 / max(1, decoder.facts.fps)
        while true {
            while free.isEmpty { try takeFrees(into: &free, wait: true) }
            try takeFrees(into: &free, wait: false)
            guard try decoder.next() else {
                // The end: again from the first frame, its times after the last one's.
                guard shownAny, decoder.restart() else {
                    throw MediaError.decode(shownAny ? "the clip cannot be rewound to loop it" : "no frame decoded")
                }
                offset = last + lastLength
                continue
            }
            let slot = free.removeFirst()
            // Only slots of this ring: a number beyond it would write past its end.
            guard slot < slots else { throw MediaError.setup("the display freed a slot the ring does not have") }
            let pts = offset + decoder.seconds
            try scaler.scale(decoder.frame, into: base.assumingMemoryBound(to: UInt8.self) + slot * slotBytes, stride: stride)
            if pts >= last { lastLength = decoder.frameSeconds ?? lastLength }
            last = max(last, pts)
            shownAny = true
            guard say(.frame(slot: slot, pts: pts)) else { throw HungUp() }
        }
    }

    @discardableResult
    private func say(_ message: MediaMessage) -> Bool {
        LineChannel.sendAll(Array(message.line.utf8), on: socket)
    }

    /// Reads `free` lines: all that wait (`wait` false) or at least one (`wait`).
    private func takeFrees(into free: inout Set<Int>, wait: Bool) throws {
        var waitNow = wait
        while true {
            while let line = nextLine() {
                guard case .free(let slot) = MediaMessage.parse(line) else {
                    throw MediaError.setup("the display sent something that is not a free slot")
                }
                free.insert(slot)
                waitNow = false
            }
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, waitNow ? -1 : 0)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = read(socket, &chunk, chunk.count)
            guard n > 0 else { throw HungUp() }
            pending += chunk.prefix(n)
            guard pending.count <= 64 << 10 else { throw MediaError.setup("the display sent too much") }
        }
    }

    private func nextLine() -> String? {
        guard let end = pending.firstIndex(of: 0x0A) else { return nil }
        let line = String(decoding: pending[..<end], as: UTF8.self)
        pending.removeSubrange(...end)
        return line
    }
}
