import CFFmpeg
import FoundationEssentials
import SplashCore

/// A clip looked at before it is cached: its container and stream read, its first frames
/// decoded as proof, and the first one made into a thumbnail's pixels (BGR, fitting the
/// thumbnail square), for the operator view.
public enum VideoProbe {
    /// What the probe found.
    public struct Result {
        /// The clip's facts.
        public var facts: VideoFacts
        /// The first frame, BGR, `thumbnailWidth`x`thumbnailHeight`.
        public var thumbnail: [UInt8]
        public var thumbnailWidth: Int
        public var thumbnailHeight: Int
    }

    /// Probes the clip on `fd`, with a thumbnail fitting `side` pixels.
    /// The media process locks itself down before it calls this (`MediaSandbox`); it
    /// decodes in software (a probe is handed no device).
    public static func probe(fd: Int32, side: Int = 320) throws -> Result {
        try probe(MediaInput(fd: fd), side: side)
    }

    /// Probes a clip held in memory (the fuzzer's entry: demuxing and decoding, no file).
    public static func probe(bytes: [UInt8], side: Int = 320) throws -> Result {
        try probe(MediaInput(bytes: bytes), side: side)
    }

    static func probe(_ input: MediaInput, side: Int) throws -> Result {
        let decoder = try VideoDecoder(input, threads: 1)
        let found = decoder.facts
        var facts = VideoFacts(container: input.container, codec: found.codec, width: found.width, height: found.height,
                               fps: found.fps, duration: found.duration, framesDecoded: 0, decoder: decoder.decoderName)
        // A clip is proven by its first frames; an animation (a GIF) by all of them, within
        // the decode budget: it is played from what was checked, and its length is theirs.
        // A GIF too large to play still has its first frame decoded: it is shown as a picture.
        let animation = AnimationLimits.isAnimation(facts)
        let playable = animation && facts.codec == "gif" && VideoLimits.fits(width: facts.width, height: facts.height)
        // Frames × pixels, and never more frames than 60 s at 60 a second (a tiny frame is cheap
        // to decode, not free).
        let budget = playable ? min(AnimationLimits.maxFrames, AnimationLimits.maxFramePixels / max(1, facts.width * facts.height)) : 0
        // Facts beyond the limits are refused before anything is decoded.
        if !animation, let refusal = VideoLimits.refusal(facts), refusal != .firstFramesDoNotDecode {
            return Result(facts: facts, thumbnail: [], thumbnailWidth: 0, thumbnailHeight: 0)
        }
        var thumbnail: [UInt8] = []
        var tw = 0, th = 0
        var end = 0.0
        var whole = false
        do {
            while animation ? facts.framesDecoded <= budget : facts.framesDecoded < VideoLimits.proofFrames {
                guard try decoder.next() else {
                    whole = true
                    break
                }
                let frame = decoder.frame
                guard frame.pointee.width > 0, frame.pointee.height > 0 else { break }
                if facts.framesDecoded == 0 {
                    let w = Int(frame.pointee.width), h = Int(frame.pointee.height)
                    let scale = min(1, Double(side) / Double(max(w, h)))
                    tw = max(1, Int((Double(w) * scale).rounded()))
                    th = max(1, Int((Double(h) * scale).rounded()))
                    thumbnail = [UInt8](repeating: 0, count: tw * th * 3)
                    let scaler = FrameScaler(width: tw, height: th, format: AV_PIX_FMT_BGR24)
                    try thumbnail.withUnsafeMutableBufferPointer { try scaler.scale(frame, into: $0.baseAddress!, stride: tw * 3) }
                }
                facts.framesDecoded += 1
                if animation {
                    let length = decoder.frameSeconds ?? 0.1
                    end = max(end, decoder.seconds + length)
                    facts.longestFrame = max(facts.longestFrame ?? 0, length)
                }
            }
        } catch {
            // Whatever decoded before the failure is what the facts say.
            if animation {
                // The rest of the frames are counted, not decoded, so the facts say which failed.
                facts.frames = facts.framesDecoded + decoder.countRemainingFrames(upTo: budget + 1)
                return Result(facts: facts, thumbnail: thumbnail, thumbnailWidth: tw, thumbnailHeight: th)
            }
        }
        if animation, !whole, !playable, facts.framesDecoded == 1 {
            // Too large to play: whether it is still (one frame) is told by the packets left.
            whole = decoder.countRemainingFrames(upTo: 1) == 0
        }
        if animation {
            // Past the budget before the end: no count (the limits say so).
            facts.frames = whole ? facts.framesDecoded : nil
            facts.duration = end
            facts.fps = end > 0 ? Double(facts.framesDecoded) / end : 0
        }
        return Result(facts: facts, thumbnail: thumbnail, thumbnailWidth: tw, thumbnailHeight: th)
    }
}
