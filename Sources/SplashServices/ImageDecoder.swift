import CSDL2
import Foundation
import SplashCore

/// Decodes JPEG and PNG files with the matching SDL_image loader, chosen by the file's
/// first bytes (never the format-guessing loader). Anything else is refused.
public enum ImageDecoder {
    /// Decodes the file at `path` into a new surface the caller frees.
    public static func load(_ path: String) throws -> UnsafeMutablePointer<SDL_Surface> {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ImageError.undecodable("\(path) cannot be opened")
        }
        let head = [UInt8](handle.readData(ofLength: 16))
        try? handle.close()
        guard let kind = ImageHeader.kind(of: head) else {
            throw head.isEmpty ? ImageError.empty : ImageHeader.refusal(for: head)
        }
        guard let rw = SDL_RWFromFile(path, "rb") else {
            throw ImageError.undecodable(sdlErrorText())
        }
        defer { SDL_RWclose(rw) }
        let surface: UnsafeMutablePointer<SDL_Surface>? = switch kind {
        case .jpeg: IMG_LoadJPG_RW(rw)
        case .png: IMG_LoadPNG_RW(rw)
        }
        guard let surface else {
            throw ImageError.undecodable("\(kind.rawValue): \(sdlErrorText())")
        }
        return surface
    }
}

/// SDL's last error message, for the display and the services alike.
public func sdlErrorText() -> String {
    guard let p = SDL_GetError() else { return "unknown SDL error" }
    let s = String(cString: p)
    return s.isEmpty ? "unknown SDL error" : s
}
