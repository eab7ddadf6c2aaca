import FoundationEssentials

/// What a clip may be to be played: the containers and codecs Debian's FFmpeg decodes here,
/// at most 3840x2160 (either way up), 60 frames a second and 60 seconds, and proof that
/// its first frames decode. A clip beyond one is not played: its campaign shows its poster.
public enum VideoLimits {
    /// Containers, by the first of FFmpeg's names for them.
    public static let containers: Set<String> = ["mov", "matroska"]
    /// Codecs, by FFmpeg's names.
    public static let codecs: Set<String> = ["h264", "hevc", "vp9", "av1"]
    /// The longer side, in pixels.
    public static let maxLongSide = 3840
    /// The shorter side, in pixels.
    public static let maxShortSide = 2160
    /// Frames a second.
    public static let maxFPS = 60.0
    /// Seconds.
    public static let maxDuration = 60.0
    /// Frames decoded as proof before a clip is cached.
    public static let proofFrames = 3
    /// The default of `video-max-mb`, in MiB.
    public static let defaultMaxMB = 100
    /// The largest `video-max-mb` may be: no cached clip is read beyond it.
    public static let largestMaxMB = 4096

    /// Why `facts` cannot be played here, in words for the operator; nil when it can.
    public static func problem(_ facts: VideoFacts) -> String? {
        if AnimationLimits.isAnimation(facts) { return AnimationLimits.problem(facts) }
        return refusal(facts)?.message
    }

    /// Why a clip (not an animation) of `facts` cannot be played here; nil when it can.
    public static func refusal(_ facts: VideoFacts) -> VideoRefusal? {
        let container = facts.container.split(separator: ",").first.map(String.init) ?? facts.container
        guard containers.contains(container) else { return .container(facts.container) }
        guard codecs.contains(facts.codec) else { return .codec(facts.codec) }
        guard facts.width > 0, facts.height > 0 else { return .noPictureSize }
        if !fits(width: facts.width, height: facts.height) { return .tooLarge(width: facts.width, height: facts.height) }
        guard facts.fps.isFinite, facts.fps > 0 else { return .frameRateUnknown }
        if facts.fps > maxFPS + 0.01 { return .tooFast(fps: facts.fps) }
        guard facts.duration.isFinite, facts.duration > 0 else { return .lengthUnknown }
        if facts.duration > maxDuration + 0.01 { return .tooLong(seconds: facts.duration) }
        if facts.framesDecoded < min(proofFrames, max(1, Int((facts.duration * facts.fps).rounded(.down)))) {
            return .firstFramesDoNotDecode
        }
        return nil
    }

    /// Whether frames `width`x`height` are within 3840x2160, either way up.
    public static func fits(width: Int, height: Int) -> Bool {
        width > 0 && height > 0 && max(width, height) <= maxLongSide && min(width, height) <= maxShortSide
    }

    /// The countdown of a video splash: the campaign's own, else the clip's length rounded
    /// up, from 1 to 30 (`otherwise`, the kiosk's, for an animation).
    /// An animation (a GIF) is not a clip: its splash counts down as a picture's does.
    public static func countdown(for facts: VideoFacts, campaign: Int?, otherwise: Int) -> Int {
        if let campaign { return campaign }
        if AnimationLimits.isAnimation(facts) { return otherwise }
        return min(30, max(1, Int(facts.duration.rounded(.up))))
    }
}
