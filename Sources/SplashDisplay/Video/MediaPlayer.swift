import CSystem
import FoundationEssentials
import Glibc
import SplashCore
import SplashServices

/// The display's side of one clip being played: the media process started with one end
/// of a socket pair and nothing else, the clip's descriptor passed to it, the frame ring it
/// made mapped read-only (sealed, so it cannot shrink under the reader), and its frames
/// handed to the loop as `videoFrameReady`. What it sends is checked like the network's:
/// a slot it does not own, a line that is no `MediaMessage`, a ring of the wrong size or an
/// early end is `videoFailed`, and the process is stopped.
final class MediaPlayer: @unchecked Sendable {
    let show: Int
    private let socket: Int32
    private let pid: pid_t
    private let lock = Lock()
    private var ring: UnsafeMutableRawPointer?
    private var ringBytes = 0
    private(set) var width = 0
    private(set) var height = 0
    private(set) var stride = 0
    /// How each frame lies in its slot.
    private(set) var layout = FrameLayout.bgra
    /// Slots the loop holds (handed over, not yet freed).
    private var held = Set<Int>()
    private var stopped = false
    private let slots: Int

    /// Plays `clip` for video show `show` in `process` (a warm one, or started now), scaled
    /// to `width`x`height`; `post` hands actions to the loop from the reader thread.
    init(show: Int, clip: String, process: WarmMediaProcess, width: Int, height: Int, slots: Int, planar: Bool = false,
         post: @escaping (@escaping (Instant) -> KioskAction) -> Void) throws {
        self.show = show
        self.slots = slots
        // Opened as every cached file is: a FIFO, a device or a link in its place is refused
        // at once, never waited on.
        let file: Int32
        do {
            file = try UntrustedFile.open(clip, limit: VideoLimits.largestMaxMB << 20).fd
        } catch {
            throw MediaPlayerError("the clip is refused: \(error.explained)")
        }
        defer { close(file) }
        (pid, socket) = process.handOver()
        let request = MediaMessage.play(width: width, height: height, slots: slots, planar: planar).line
        guard request.withCString({ splash_send_with_fd(socket, $0, strlen($0), file) }) > 0 else {
            // Stopped, reaped and its socket closed once, by the deinit.
            throw MediaPlayerError("the media process did not take the clip")
        }
        let show = show
        SerialWorker.detached(name: "splashboard.media-\(show)") { [self] in
            let outcome = read(expecting: (width, height), planar: planar, post: post)
            if let failure = outcome {
                post { .videoFailed(show: show, reason: failure, $0) }
            }
        }
    }

    deinit {
        stop()
        close(socket)
    }

    /// Reads the ready line and then the frames; the reason playing ended, nil when it was
    /// stopped from this side.
    private func read(expecting size: (Int, Int), planar: Bool, post: @escaping (@escaping (Instant) -> KioskAction) -> Void) -> String? {
        var memory: Int32 = -1
        var buffer = [UInt8](repeating: 0, count: MediaMessage.maxLine)
        let got = buffer.withUnsafeMutableBytes { splash_receive_with_fd(socket, $0.baseAddress, $0.count, &memory) }
        defer { if memory >= 0 { close(memory) } }
        guard got > 0 else { return isStopped ? nil : ended() }
        var pending = Array(buffer.prefix(got))
        guard let end = pending.firstIndex(of: 0x0A) else { return "the media process sent garbage" }
        let first = String(decoding: pending[..<end], as: UTF8.self)
        pending.removeSubrange(...end)
        if case .failed(let why) = MediaMessage.parse(first) { return why }
        guard memory >= 0 else { return "the media process sent no frame memory" }
        guard case let .ready(w, h, stride, n, layout) = MediaMessage.parse(first), w == size.0, h == size.1, n == slots,
              layout == .bgra || planar else {
            return "the media process answered with something else than the frames asked for"
        }
        let bytes = layout.slotBytes(stride: stride, height: h) * n
        var st = stat()
        guard splash_shared_memory_is_sealed(memory) != 0, fstat(memory, &st) == 0, Int(st.st_size) == bytes,
              let mapped = mmap(nil, bytes, PROT_READ, MAP_SHARED, memory, 0), mapped != MAP_FAILED else {
            return "the media process's frame memory is not sealed or not the size it says"
        }
        lock.lock()
        guard !stopped else {
            // Stopped while the ring was being mapped: it is let go here.
            lock.unlock()
            munmap(mapped, bytes)
            return nil
        }
        ring = mapped
        ringBytes = bytes
        width = w
        height = h
        self.stride = stride
        self.layout = layout
        lock.unlock()
        let channel = LineChannel(fd: socket, limit: MediaMessage.maxLine)
        if !pending.isEmpty { channel.prepend(pending) }
        while true {
            switch channel.next() {
            case .line(let data):
                let line = String(decoding: data, as: UTF8.self)
                switch MediaMessage.parse(line) {
                case let .frame(slot, pts)?:
                    lock.lock()
                    let fresh = slot < slots && held.insert(slot).inserted
                    lock.unlock()
                    guard fresh else { return "the media process handed over a frame slot the screen still holds" }
                    let show = show
                    post { .videoFrameReady(show: show, slot: slot, pts: pts, $0) }
                case .failed(let why)?:
                    return why.isEmpty ? "the media process failed" : why
                default:
                    return "the media process sent garbage"
                }
            case .tooLong:
                return "the media process sent garbage (a line too long)"
            case .closed, .failed, .timedOut:
                return isStopped ? nil : ended()
            }
        }
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    /// Why the process ended, from its exit status (read, not reaped: `stop` reaps it).
    private func ended() -> String {
        for _ in 0..<50 {
            if let how = ChildProgram.peekExit(pid) { return "the media process \(how)" }
            usleep(10_000)
        }
        return "the media process hung up"
    }

    /// The pixels of `slot` (laid out as `layout` says, `stride` bytes a line), while the
    /// loop holds it.
    func pixels(of slot: Int) -> UnsafeRawPointer? {
        lock.lock()
        defer { lock.unlock() }
        guard let ring, held.contains(slot) else { return nil }
        return UnsafeRawPointer(ring + slot * layout.slotBytes(stride: stride, height: height))
    }

    /// Gives `slot` back to the media process. Never blocks: a media process that does not
    /// read what it is sent (its socket full) is stopped, and `onStuck` says so.
    func free(_ slot: Int) {
        lock.lock()
        let was = held.remove(slot) != nil && !stopped
        lock.unlock()
        guard was else { return }
        let line = Array(MediaMessage.free(slot: slot).line.utf8)
        let sent = line.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        if sent != line.count {
            stop()
            onStuck?()
        }
    }

    /// Told (on the loop's thread) when a media process stopped reading and was stopped.
    var onStuck: (() -> Void)?
    /// Whether its frames have transparent pixels to draw over the background (an animated
    /// GIF's); a clip's frames are opaque.
    var blends = false

    /// Ends the media process and lets go of the ring.
    func stop() {
        lock.lock()
        guard !stopped else { lock.unlock(); return }
        stopped = true
        let mapped = ring
        ring = nil
        held.removeAll()
        lock.unlock()
        shutdown(socket, Int32(SHUT_RDWR))
        // Reaped on a thread of its own: a child stuck in a driver cannot hold the loop.
        ChildProgram.stop(pid, waiting: false)
        if let mapped { munmap(mapped, ringBytes) }
    }
}

/// The media process could not be started for a clip.
struct MediaPlayerError: LocalizedError {
    var reason: String
    init(_ reason: String) { self.reason = reason }
    var errorDescription: String? { reason }
}
