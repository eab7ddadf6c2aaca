import FoundationEssentials

/// Why a clip is not played here (`VideoLimits.refusal`), as data: what decides (the media
/// process probing no further than the facts allow) reads the case, and only the operator
/// reads `message`.
public enum VideoRefusal: Equatable, Sendable {
    case container(String)
    case codec(String)
    case noPictureSize
    case tooLarge(width: Int, height: Int)
    case frameRateUnknown
    case tooFast(fps: Double)
    case lengthUnknown
    case tooLong(seconds: Double)
    /// Its first frames did not decode: known only once they were tried.
    case firstFramesDoNotDecode

    /// In words for the operator.
    public var message: String {
        switch self {
        case .container(let name): return "its container is \(name); MP4/MOV, WebM and Matroska are played"
        case .codec(let name): return "its codec is \(name); H.264, HEVC, VP9 and AV1 are played"
        case .noPictureSize: return "it has no picture size"
        case let .tooLarge(width, height): return "it is \(width)x\(height); clips up to 3840x2160 are played"
        case .frameRateUnknown: return "its frame rate is unknown"
        case .tooFast(let fps):
            return "it has \(String(cFormat: "%g", (fps * 100).rounded() / 100)) frames a second; up to 60 are played"
        case .lengthUnknown: return "its length is unknown"
        case .tooLong(let seconds): return "it lasts \(String(cFormat: "%.1f", seconds)) s; clips up to 60 s are played"
        case .firstFramesDoNotDecode: return "its first frames do not decode"
        }
    }
}
