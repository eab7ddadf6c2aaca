import FoundationEssentials
// With Debian's Swift 6.0 for arm64, <sys/socket.h> is not in Glibc's module map and
// belongs to the first module that includes it, libcurl's: its socket names come from there.
import CCurl
import Glibc
import SplashCore
import SplashPictures
import SplashServices
import SplashStorage

/// Fetches one clip into the cache: stopped at its first bytes when they are no MP4/MOV
/// or Matroska/WebM, stopped past `video-max-mb`, then probed by the media process — its
/// container, codec, size, rate and length held to `VideoLimits`, its first frames decoded —
/// before it takes its final name. The first frame becomes its thumbnail.
public struct VideoDownloader {
    /// What became of one clip.
    public enum Outcome: Equatable {
        /// Cached and playable: its facts and its first frame's thumbnail (JPEG).
        case cached(path: String, facts: VideoFacts, thumbnail: [UInt8]?)
        /// Not playable here for good, and why (the poster is shown instead).
        case refused(ClipRefusal)
        /// Not available this time; tried again at the next sync.
        case unavailable(String)
        /// No room in the cache for it.
        case noRoom
    }

    let cache: ImageCache
    let fetcher: Fetcher
    let maxBytes: Int
    let mediaProgram: String?

    /// Seconds a clip's download may take (a picture's take 30).
    public static let downloadSeconds: TimeInterval = 300

    /// Downloads into `cache` with `pictures`' limits (its minimum rate included) but for
    /// `seconds` (at most a clip's download time), clips of at most `maxBytes`, probed by
    /// the media program found where the kiosk's programs are (none: no clip is cached).
    public init(cache: ImageCache, like pictures: Fetcher, maxBytes: Int, seconds: TimeInterval = downloadSeconds) {
        let fetcher = Fetcher(clock: pictures.clock)
        fetcher.totalTimeout = max(1, min(Self.downloadSeconds, seconds))
        fetcher.idleTimeout = pictures.idleTimeout
        fetcher.maxRedirects = pictures.maxRedirects
        fetcher.minimumRate = pictures.minimumRate
        self.cache = cache
        self.fetcher = fetcher
        self.maxBytes = maxBytes
        mediaProgram = ChildProgram.locateMedia()
    }

    /// Downloads `url` and caches it under `key`, taking at most `room` bytes.
    public func download(_ url: URL, as key: String, room: Int) -> Outcome {
        download(url, as: key, room: room, asking: nil, at: fetcher.clock.date()).outcome ?? .unavailable("no answer")
    }

    /// Downloads `url` as `download(_:as:room:)` does, asking only for a change when `known`
    /// validators are given (a cached clip revalidated): nil when it has not changed. A
    /// changed clip is written beside the cached one and probed before it takes its name.
    public func download(_ url: URL, as key: String, room: Int, asking known: FileValidators?, at now: Date)
        -> (outcome: Outcome?, validators: FileValidators?) {
        guard let mediaProgram else {
            return (.unavailable("the media process (splashboard-media) is not installed, so clips cannot be checked"), nil)
        }
        let partial: ImageCache.PartialFile
        do {
            partial = try cache.beginWrite()
        } catch {
            return (.unavailable(error.explained), nil)
        }
        do {
            let refuseEarly: ([UInt8]) throws -> Void = { head in
                if let problem = VideoHeader.problem(head) { throw VideoRefusal(reason: problem) }
            }
            guard let validators = try CacheFetch.changed(url, into: partial, as: key, cache: cache, fetcher: fetcher, known: known,
                                                          limit: min(room, maxBytes), inspect: refuseEarly, at: now) else {
                return (nil, known)
            }
            let probed = try MediaProbe.run(mediaProgram, on: partial.path)
            if let problem = VideoLimits.problem(probed.facts) {
                cache.discard(partial)
                return (.refused(.unplayable("\(probed.facts.summary): \(problem)")), nil)
            }
            try cache.commit(partial, as: key)
            return (.cached(path: cache.path(forKey: key), facts: probed.facts, thumbnail: probed.thumbnail), validators)
        } catch let refusal as VideoRefusal {
            cache.discard(partial)
            return (.refused(.unplayable(refusal.reason)), nil)
        } catch let error as FetchError {
            cache.discard(partial)
            if case .tooLarge = error {
                if room < maxBytes { return (.noRoom, nil) }
                return (.refused(.tooLarge(limitMB: maxBytes >> 20)), nil)
            }
            return (.unavailable(error.explained), nil)
        } catch {
            cache.discard(partial)
            return (.unavailable(error.explained), nil)
        }
    }

    /// A clip refused for what it is.
    struct VideoRefusal: Error {
        var reason: String
    }
}

/// The media process asked about one file (`splashboard-media probe`): the file on its
/// standard input, its answer read from its standard output within `timeout` seconds.
enum MediaProbe {
    /// Seconds a probe may take.
    static let timeout: TimeInterval = 30

    static func run(_ program: String, on path: String) throws -> (facts: VideoFacts, thumbnail: [UInt8]?) {
        let clip = open(path, O_RDONLY | O_CLOEXEC)
        guard clip >= 0 else { throw VideoDownloader.VideoRefusal(reason: "the downloaded clip cannot be read back") }
        defer { close(clip) }
        var pipe: [Int32] = [0, 0]
        // A socket pair, not a pipe: the answer is read with the line channel's recv.
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pipe) == 0 else {
            throw MediaProbeError(reason: String(cString: strerror(errno)))
        }
        let pid: pid_t
        do {
            pid = try ChildProgram.spawn(program, ["probe"], descriptors: [(clip, 0), (pipe[1], 1)])
        } catch {
            close(pipe[0])
            close(pipe[1])
            throw error
        }
        close(pipe[1])
        defer { close(pipe[0]) }
        let channel = LineChannel(fd: pipe[0], limit: 8192)
        let deadline = channel.deadline(after: timeout)
        guard case .line(let line) = channel.next(by: deadline) else {
            // Ended without an answer (killed by the system, out of memory): tried again at the
            // next sync. Still busy after its time: the clip is what keeps it busy.
            let ended = ChildProgram.peekExit(pid)
            ChildProgram.stop(pid)
            if let ended { throw MediaProbeError(reason: "the media process \(ended) before it answered") }
            throw VideoDownloader.VideoRefusal(reason: "the media process gave no answer about it in \(Int(timeout)) s "
                                               + "(it may be malformed)")
        }
        let answer = (try? JSONReader.value(Data(line))) as? [String: Any] ?? [:]
        var thumbnail: [UInt8]?
        var facts: VideoFacts?
        if let object = answer["facts"], let data = Optional(Data(JSONValue(object).encoded().utf8)) {
            facts = try? JSONDecoder().decode(VideoFacts.self, from: data)
        }
        if let size = answer["thumbnail"] as? [Int], size.count == 2, (1...Thumbnail.side).contains(size[0]),
           (1...Thumbnail.side).contains(size[1]), let bytes = channel.bytes(size[0] * size[1] * 3, by: deadline),
           let picture = try? PixelBuffer(width: size[0], height: size[1], format: .bgr24) {
            bytes.withUnsafeBytes { raw in
                for row in 0..<size[1] {
                    (picture.pixels + row * picture.pitch).copyMemory(from: raw.baseAddress! + row * size[0] * 3,
                                                                    byteCount: size[0] * 3)
                }
            }
            thumbnail = try? Thumbnail.jpeg(of: picture)
        }
        ChildProgram.stop(pid)
        if let error = answer["error"] as? String { throw VideoDownloader.VideoRefusal(reason: String(error.prefix(300))) }
        guard let facts else { throw VideoDownloader.VideoRefusal(reason: "the media process's answer about it was not understood") }
        return (facts, thumbnail)
    }
}

/// The media process could not be asked.
struct MediaProbeError: LocalizedError {
    var reason: String
    var errorDescription: String? { "cannot ask the media process about a clip: \(reason)" }
}
