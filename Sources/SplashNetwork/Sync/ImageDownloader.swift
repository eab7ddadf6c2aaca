import FoundationEssentials
import SplashPictures
import SplashServices
import SplashCore
import SplashStorage

/// Fetches one picture into the cache under the picture limits: refused early when its
/// first bytes are not JPEG, PNG, WebP or GIF, validated whole before it takes its final
/// name. A GIF is decoded by the media process (every frame, within the decode budget):
/// the network process parses none of its pixels.
public struct ImageDownloader {
    /// The largest picture fetched, in bytes (20 MiB).
    public static let imageLimit = 20 << 20
    /// Held while a downloaded picture is decoded to check it.
    static let checking = Lock()

    /// What became of one picture.
    public enum Outcome: Equatable {
        /// Cached and valid, with its thumbnail and, for an animated GIF, how it moves.
        case cached(path: String, thumbnail: [UInt8], motion: Motion = .still)
        /// Refused for good (wrong kind, too large, cut short, undecodable), with the reason.
        case refused(String)
        /// Not available this time (network, server error); worth trying again later.
        case unavailable(String)
        /// Not cached for want of room in the cache (`cache-max-mb`); tried again when
        /// room is made.
        case noRoom
    }

    /// Whether a picture moves: a still one, an animated GIF played (its facts), or one
    /// shown still because its animation is beyond `AnimationLimits` (and why).
    public enum Motion: Equatable {
        case still
        case plays(VideoFacts)
        case stillBecause(String, VideoFacts)

        /// The facts of an animation, played or not (kept, so that why it is shown still can
        /// be said again).
        public var facts: VideoFacts? {
            switch self {
            case .still: return nil
            case .plays(let facts), .stillBecause(_, let facts): return facts
            }
        }
    }

    /// What a check found in a picture that passed it.
    public struct Checked: Equatable {
        /// Its thumbnail (JPEG).
        public var thumbnail: [UInt8]
        /// Whether it moves.
        public var motion: Motion
    }

    let cache: ImageCache
    let fetcher: Fetcher
    let mediaProgram: String?

    /// Downloads into `cache` through `fetcher`; GIFs are checked by the media program found
    /// where the kiosk's programs are.
    public init(cache: ImageCache, fetcher: Fetcher) {
        self.cache = cache
        self.fetcher = fetcher
        mediaProgram = ChildProgram.locateMedia()
    }

    /// Downloads `url` and caches it under `key`, taking at most `room` bytes of the cache
    /// (a picture that would not fit is stopped and is not cached: tried again later).
    public func download(_ url: URL, as key: String, room: Int = ImageDownloader.imageLimit) -> Outcome {
        // Asked without validators, a server cannot answer "unchanged".
        download(url, as: key, room: room, asking: nil, at: fetcher.clock.date()).outcome ?? .unavailable("no answer")
    }

    /// Downloads `url` as `download(_:as:room:)` does, asking only for a change when `known`
    /// validators are given (a cached picture revalidated): the outcome is nil when it has
    /// not changed (nothing written). A changed picture is written beside the cached one and
    /// takes its name only once it passed the checks: until then the old one stays. The
    /// validators are those of the picture fetched (nil when none came).
    public func download(_ url: URL, as key: String, room: Int, asking known: FileValidators?, at now: Date)
        -> (outcome: Outcome?, validators: FileValidators?) {
        let partial: ImageCache.PartialFile
        do {
            partial = try cache.beginWrite()
        } catch {
            return (.unavailable(error.explained), nil)
        }
        do {
            guard let validators = try CacheFetch.changed(url, into: partial, as: key, cache: cache, fetcher: fetcher, known: known,
                                                          limit: min(room, Self.imageLimit), inspect: Self.refuseEarly, at: now) else {
                return (nil, known)
            }
            // Downloads run side by side; decoding to check them, one at a time (memory).
            Self.checking.lock()
            defer { Self.checking.unlock() }
            let checked = try check(partial.path)
            try cache.commit(partial, as: key)
            return (.cached(path: cache.path(forKey: key), thumbnail: checked.thumbnail, motion: checked.motion), validators)
        } catch let error as ImageError {
            cache.discard(partial)
            return (.refused(error.explained), nil)
        } catch let error as FetchError {
            cache.discard(partial)
            if case .tooLarge = error {
                // Over the cache's room rather than the picture limit: not the picture's fault.
                if room < Self.imageLimit { return (.noRoom, nil) }
                return (.refused(error.explained), nil)
            }
            return (.unavailable(error.explained), nil)
        } catch {
            cache.discard(partial)
            return (.unavailable(error.explained), nil)
        }
    }

    /// Checks the picture file at `path` and makes its thumbnail: a JPEG, PNG or WebP here
    /// (`ImageValidator`), a GIF by the media process. Throws `ImageError` when it may not
    /// be cached, another error when it could not be checked this time.
    public func check(_ path: String) throws -> Checked {
        let head = [UInt8](try UntrustedFile.read(path, first: 16))
        guard ImageHeader.kind(of: head) == .gif else {
            return Checked(thumbnail: try ImageValidator.check(path).thumbnail, motion: .still)
        }
        let header = try ImageHeader.parse(head)
        let bytes = [UInt8](try UntrustedFile.read(path))
        guard ImageHeader.isComplete(.gif, tail: Array(bytes.suffix(32))) else { throw ImageError.truncated("GIF") }
        _ = try ImageHeader.checkGIFFirstFrame(bytes, header: header)
        guard let mediaProgram else {
            throw MediaProbeError(reason: "the media process (splashboard-media) is not installed, so GIF pictures cannot be checked")
        }
        let probed: (facts: VideoFacts, thumbnail: [UInt8]?)
        do {
            probed = try MediaProbe.run(mediaProgram, on: path)
        } catch let refusal as VideoDownloader.VideoRefusal {
            throw ImageError.undecodable("GIF: \(refusal.reason)")
        }
        let facts = probed.facts
        guard facts.framesDecoded > 0, let thumbnail = probed.thumbnail else {
            throw ImageError.undecodable("GIF: its first frame does not decode")
        }
        guard facts.container == "gif", facts.width == header.width, facts.height == header.height else {
            throw ImageError.undecodable("GIF: decoded \(facts.width)×\(facts.height) \(facts.container), "
                                         + "its header said \(header.width)×\(header.height)")
        }
        if facts.frames == 1 { return Checked(thumbnail: thumbnail, motion: .still) }
        if let problem = AnimationLimits.problem(facts) { return Checked(thumbnail: thumbnail, motion: .stillBecause(problem, facts)) }
        return Checked(thumbnail: thumbnail, motion: .plays(facts))
    }

    /// Stops a download at its first bytes when they are not a JPEG, PNG, WebP or GIF, or
    /// one whose header already declares too many pixels (or, a WebP, animation).
    static func refuseEarly(_ head: [UInt8]) throws {
        guard let kind = ImageHeader.kind(of: head) else { throw ImageHeader.refusal(for: head) }
        if kind == .png, head.count >= 24 { _ = try ImageHeader.parse(head) }
        if kind == .webp, head.count >= 30 { _ = try ImageHeader.parse(head) }
        if kind == .gif, head.count >= 10 { _ = try ImageHeader.parse(head) }
    }
}
