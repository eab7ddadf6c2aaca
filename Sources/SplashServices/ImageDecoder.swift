import CSDL2
import Foundation
import SplashCore

/// Decodes JPEG and PNG files with the matching SDL_image loader, chosen by the file's
/// first bytes (never the format-guessing loader). Anything else is refused, and so is a
/// JPEG whose decode would exceed the work budget (`ImageHeader.maxScanWork`), wherever
/// it comes from (a picture cached before the budget existed, a bundled file).
public enum ImageDecoder {
    /// Decodes the file at `path` into a new surface the caller frees.
    public static func load(_ path: String) throws -> UnsafeMutablePointer<SDL_Surface> {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ImageError.undecodable("\(path) cannot be opened")
        }
        let head = [UInt8](handle.readData(ofLength: 16))
        guard let kind = ImageHeader.kind(of: head) else {
            try? handle.close()
            throw head.isEmpty ? ImageError.empty : ImageHeader.refusal(for: head)
        }
        switch kind {
        case .png:
            try? handle.close()
            guard let rw = SDL_RWFromFile(path, "rb") else { throw ImageError.undecodable(sdlErrorText()) }
            defer { SDL_RWclose(rw) }
            guard let surface = IMG_LoadPNG_RW(rw) else { throw ImageError.undecodable("PNG: \(sdlErrorText())") }
            return surface
        case .jpeg:
            // Read whole (at most the 20 MiB a picture may have), its scans counted, then
            // decoded from memory.
            handle.seek(toFileOffset: 0)
            let data = handle.readDataToEndOfFile()
            try? handle.close()
            let header = try ImageHeader.parse([UInt8](data.prefix(1 << 20)))
            return try data.withUnsafeBytes { bytes in
                try ImageHeader.checkDecodeWork(bytes, header: header)
                guard let rw = SDL_RWFromConstMem(bytes.baseAddress, Int32(bytes.count)) else {
                    throw ImageError.undecodable(sdlErrorText())
                }
                defer { SDL_RWclose(rw) }
                guard let surface = IMG_LoadJPG_RW(rw) else { throw ImageError.undecodable("JPEG: \(sdlErrorText())") }
                return surface
            }
        }
    }
}

/// SDL's last error message, for the display and the services alike.
public func sdlErrorText() -> String {
    guard let p = SDL_GetError() else { return "unknown SDL error" }
    let s = String(cString: p)
    return s.isEmpty ? "unknown SDL error" : s
}
