import FoundationEssentials

/// What the media process found in a clip: its container and codec as FFmpeg names them,
/// its size, frame rate and length, and how many frames it decoded as proof. Written by
/// the media process, checked by the network process, stored with the campaign, and read
/// back by the display, which holds it to `VideoLimits` again.
public struct VideoFacts: Codable, Equatable, Hashable, Sendable {
    /// FFmpeg's demuxer name: `mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`.
    public var container: String
    /// FFmpeg's codec name: `h264`, `hevc`, `vp9`, `av1`.
    public var codec: String
    /// Pixels across and down, as displayed.
    public var width: Int
    /// Pixels down.
    public var height: Int
    /// Frames a second (the stream's average rate).
    public var fps: Double
    /// Seconds.
    public var duration: Double
    /// Frames decoded whole to prove the clip plays.
    public var framesDecoded: Int
    /// The decoder that did it (`h264_v4l2m2m` where the kernel has one).
    public var decoder: String?
    /// An animation's (a GIF's) frames in all, every one decoded when it was checked; nil
    /// for a clip, or for an animation that went past the decode budget before its end.
    public var frames: Int?
    /// An animation's longest frame, in seconds (a GIF often holds its last one for long).
    public var longestFrame: Double?

    /// Facts of a clip.
    public init(container: String, codec: String, width: Int, height: Int, fps: Double, duration: Double,
                framesDecoded: Int, decoder: String? = nil, frames: Int? = nil) {
        self.container = container
        self.codec = codec
        self.width = width
        self.height = height
        self.fps = fps
        self.duration = duration
        self.framesDecoded = framesDecoded
        self.decoder = decoder
        self.frames = frames
    }

    /// One line for people: `h264 1920x1080 30 fps 12.0 s`, `animated gif 320x240 10 fps 2.0 s`.
    public var summary: String {
        (AnimationLimits.isAnimation(self) ? "animated " : "") + "\(codec) \(width)x\(height) \(fps.rounded() == fps ? String(Int(fps)) : String(cFormat: "%.2f", fps)) fps "
            + String(cFormat: "%.1f s", duration)
    }

    /// As stored and sent: one JSON object.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// Facts from their JSON; nil for anything else.
    public static func from(json text: String) -> VideoFacts? {
        guard text.utf8.count <= 4096 else { return nil }
        return try? JSONDecoder().decode(VideoFacts.self, from: Data(text.utf8))
    }
}
