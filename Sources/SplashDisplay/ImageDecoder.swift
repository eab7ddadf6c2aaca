import CSDL2
import Foundation

/// Decodes JPEG and PNG files with the matching SDL_image loader, chosen by the file's
/// first bytes (never the format-guessing loader). Anything else is refused.
public enum ImageDecoder {
    /// The image kinds the kiosk shows.
    public enum Kind: String {
        case jpeg = "JPEG"
        case png = "PNG"
    }

    /// The kind of an image from its first bytes, or nil.
    public static func kind(of header: [UInt8]) -> Kind? {
        if header.count >= 3, header[0] == 0xFF, header[1] == 0xD8, header[2] == 0xFF { return .jpeg }
        if header.count >= 8, header[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return .png }
        return nil
    }

    /// Decodes the file at `path` into a new surface the caller frees.
    public static func load(_ path: String) throws -> UnsafeMutablePointer<SDL_Surface> {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw DisplayError.badImage(path: path, reason: "the file cannot be opened")
        }
        let header = [UInt8](handle.readData(ofLength: 8))
        try? handle.close()
        guard let kind = kind(of: header) else {
            throw DisplayError.badImage(path: path, reason: "it is not a JPEG or PNG file")
        }
        guard let rw = SDL_RWFromFile(path, "rb") else {
            throw DisplayError.badImage(path: path, reason: sdlError())
        }
        defer { SDL_RWclose(rw) }
        let surface: UnsafeMutablePointer<SDL_Surface>? = switch kind {
        case .jpeg: IMG_LoadJPG_RW(rw)
        case .png: IMG_LoadPNG_RW(rw)
        }
        guard let surface else {
            throw DisplayError.badImage(path: path, reason: "the \(kind.rawValue) data cannot be decoded (\(sdlError()))")
        }
        return surface
    }
}
