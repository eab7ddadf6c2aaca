import FoundationEssentials

/// What an animated GIF may be to be played under the pill: at most 3840x2160 (either way
/// up), 60 seconds and 60 frames a second, every frame decoded when it was checked, and
/// all of its frames together within a decode budget (frames × pixels, and at most 3,600
/// frames), so that a small
/// file cannot ask for hours of decoding. Beyond one, its first frame is shown as a still
/// picture.
public enum AnimationLimits {
    /// The decode budget: frames × width × height, all frames together (about 240 frames
    /// at 1920x1080, 1,600 at 640x480).
    public static let maxFramePixels = 500_000_000

    /// The most frames decoded: 60 s at 60 a second.
    public static let maxFrames = Int(VideoLimits.maxDuration * VideoLimits.maxFPS)

    /// Whether `facts` are an animation's (a GIF's) rather than a clip's.
    public static func isAnimation(_ facts: VideoFacts) -> Bool {
        facts.container == "gif"
    }

    /// Why the animation of `facts` is not played, in words for the operator; nil when it is.
    public static func problem(_ facts: VideoFacts) -> String? {
        guard facts.codec == "gif" else { return "its codec is \(facts.codec) in a GIF container" }
        guard facts.width > 0, facts.height > 0 else { return "it has no picture size" }
        if !VideoLimits.fits(width: facts.width, height: facts.height) {
            return "it is \(facts.width)x\(facts.height); animations up to 3840x2160 are played"
        }
        guard let frames = facts.frames else {
            return "its frames at \(facts.width)x\(facts.height) are more than the decode budget allows ("
                + "\(maxFramePixels / 1_000_000) megapixels of frames in all, at most \(maxFrames) frames; it stopped after "
                + "\(facts.framesDecoded) frames): make it smaller or shorter, or make it a clip (videoUrl)"
        }
        if frames > maxFrames { return "it has \(frames) frames; animations of up to \(maxFrames) are played" }
        if frames * facts.width * facts.height > maxFramePixels {
            return "its \(frames) frames at \(facts.width)x\(facts.height) are more than the decode budget allows "
                + "(\(maxFramePixels / 1_000_000) megapixels of frames in all): make it smaller or shorter, or make it a clip (videoUrl)"
        }
        guard facts.framesDecoded >= frames else { return "its frame \(facts.framesDecoded + 1) of \(frames) does not decode" }
        guard facts.duration.isFinite, facts.duration > 0 else { return "its length is unknown" }
        if facts.duration > VideoLimits.maxDuration + 0.01 {
            return "it lasts \(String(cFormat: "%.1f", facts.duration)) s; animations up to 60 s are played"
        }
        if facts.fps > VideoLimits.maxFPS + 0.01 {
            return "it has \(String(cFormat: "%g", (facts.fps * 100).rounded() / 100)) frames a second; up to 60 are played"
        }
        return nil
    }
}
