import FoundationEssentials

/// An image refused before it is decoded, and why.
public enum ImageError: LocalizedError, Equatable, Sendable {
    case empty
    case notAnImage(String)
    case unsupported(String)
    case malformed(String)
    case tooLarge(width: Int, height: Int)
    case truncated(String)
    case undecodable(String)
    case tooMuchWork(scans: Int, width: Int, height: Int)
    /// An animated WebP: neither SDL_image nor FFmpeg here decodes its frames.
    case animatedWebP

    /// Why the image is refused, in words for the operator.
    public var errorDescription: String? {
        switch self {
        case .empty: return "the image is empty (0 bytes)"
        case .notAnImage(let what): return "not an image: the data looks like \(what); only JPEG, PNG, WebP and GIF are shown"
        case .unsupported(let kind): return "\(kind) images are not supported; only JPEG, PNG, WebP and GIF are shown"
        case .malformed(let why): return "the image header is malformed: \(why)"
        case let .tooLarge(w, h):
            return "the image is \(w)×\(h) pixels; the limit is \(ImageHeader.maxSide)×\(ImageHeader.maxSide) and \(ImageHeader.maxPixels / 1_000_000) megapixels"
        case .truncated(let kind):
            return "the \(kind) data is cut short (" + (kind == "WebP" ? "shorter than its header says" : "no end marker")
                + "): the file is incomplete, as an upload or copy that stopped early leaves it; put the whole file up again"
        case .undecodable(let why): return "the image cannot be decoded: \(why)"
        case let .tooMuchWork(scans, w, h):
            return "the JPEG has \(scans) scans at \(w)×\(h); decoding it would take too long (a decoder walks the "
                + "whole picture once per scan; the limit is \(ImageHeader.maxScanWork / 1_000_000) million pixel-scans)"
        case .animatedWebP:
            return "animated WebP is not shown (this system's decoders read only still WebP); save it as an animated GIF, "
                + "or as a clip in videoUrl"
        }
    }
}
