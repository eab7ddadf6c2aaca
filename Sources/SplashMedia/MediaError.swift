import CFFmpeg
import FoundationEssentials

/// Why a clip cannot be read, decoded or played, in words for the operator.
public enum MediaError: LocalizedError, Equatable {
    /// FFmpeg could not read it as a container it accepts.
    case unreadable(String)
    /// It holds no video stream.
    case noVideo
    /// No decoder here for its codec.
    case noDecoder(String)
    /// Decoding failed.
    case decode(String)
    /// Setting up the process (shared memory, the sandbox) failed.
    case setup(String)

    public var errorDescription: String? {
        switch self {
        case .unreadable(let why): return "not a video this kiosk reads (MP4/MOV, WebM, Matroska): \(why)"
        case .noVideo: return "it holds no video stream"
        case .noDecoder(let codec): return "no decoder here for its codec \(codec)"
        case .decode(let why): return "its frames do not decode: \(why)"
        case .setup(let why): return why
        }
    }

    /// FFmpeg's words for `code`.
    static func text(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        splash_av_error_text(code, &buffer, buffer.count)
        return String(cString: buffer)
    }
}
