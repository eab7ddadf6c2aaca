import CSDL2
import Foundation
import SplashCore
import SplashServices

/// Pictures: decoded once per screen (or ahead, on another thread), kept while the
/// screen is up, drawn fitted or filled; thumbnails from the database.
extension Surface {
    /// A picture ready to draw on this surface.
    private enum Ready {
        /// Uploaded to this surface's renderer.
        case texture(OpaquePointer)
        /// Kept as decoded, blitted onto this surface's pixels.
        case pixels(DecodedPicture)
    }

    /// The pixel size of the decoded image at `path` (decoded once, kept until released).
    public func imageSize(_ path: String) throws -> Size {
        try picture(path).size
    }

    private func picture(_ path: String) throws -> (picture: Ready, size: Size) {
        if pixels != nil, let kept = shelf.decoded[path] { return (.pixels(kept.picture), kept.size) }
        if let made = textures[path] { return (.texture(made.texture), made.size) }
        let surface = try shelf.decode(path)
        let size = Size(width: Int(surface.pointee.w), height: Int(surface.pointee.h))
        if pixels != nil, !DecodedPicture.hasTransparency(surface) {
            // Opaque pictures stay as decoded and are blitted onto the frame: no texture copy.
            let decoded = DecodedPicture(surface)
            shelf.keep(decoded, size: size, for: path)
            return (.pixels(decoded), size)
        }
        defer { SDL_FreeSurface(surface) }
        guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else {
            throw DisplayError.badImage(path: path, reason: sdlErrorText())
        }
        SDL_SetTextureScaleMode(texture, SDL_ScaleModeLinear)
        textures[path] = (texture, size)
        return (.texture(texture), size)
    }

    /// Draws part of a texture into a rectangle, scaled.
    func draw(_ texture: OpaquePointer, from source: Rect?, to destination: Rect) {
        var dst = SDL_Rect(destination)
        if let source {
            var src = SDL_Rect(source)
            SDL_RenderCopy(renderer, texture, &src, &dst)
        } else {
            SDL_RenderCopy(renderer, texture, nil, &dst)
        }
    }

    /// Draws an image fitted (letterboxed) or filled (cropped) into `box`.
    public func drawImage(_ path: String, in box: Rect, mode: ImageFit) throws {
        let (picture, size) = try picture(path)
        let placement = mode.placement(of: size, on: Size(width: box.width, height: box.height))
        var dst = placement.destination
        dst.x += box.x
        dst.y += box.y
        let source = placement.source
        switch picture {
        case .pixels(let decoded):
            guard let pixels else { return }
            // What the renderer has queued goes first, then the picture straight onto the frame.
            flush()
            if decoded.draw(source, to: dst, on: pixels) { return }
            // A rectangle the blitters refuse (they do not clip): through a texture instead.
            guard let texture = SDL_CreateTextureFromSurface(renderer, decoded.pixels) else {
                throw DisplayError.badImage(path: path, reason: sdlErrorText())
            }
            defer { SDL_DestroyTexture(texture) }
            SDL_SetTextureScaleMode(texture, SDL_ScaleModeLinear)
            draw(texture, from: decoded.held(source), to: dst)
        case .texture(let texture):
            draw(texture, from: source, to: dst)
        }
    }

    /// Decodes a JPEG held in memory (a thumbnail from the database) and draws it fitted
    /// into `box`; false when it cannot be decoded.
    @discardableResult
    public func drawJPEG(_ bytes: [UInt8], in box: Rect) -> Bool {
        guard ImageHeader.kind(of: Array(bytes.prefix(3))) == .jpeg else { return false }
        let surface: UnsafeMutablePointer<SDL_Surface>? = bytes.withUnsafeBytes { raw in
            guard let rw = SDL_RWFromConstMem(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { SDL_RWclose(rw) }
            return IMG_LoadJPG_RW(rw)
        }
        guard let surface else { return false }
        defer { SDL_FreeSurface(surface) }
        guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return false }
        defer { SDL_DestroyTexture(texture) }
        SDL_SetTextureScaleMode(texture, SDL_ScaleModeLinear)
        let size = Size(width: Int(surface.pointee.w), height: Int(surface.pointee.h))
        var placed = ImageFit.fit.placement(of: size, on: Size(width: box.width, height: box.height)).destination
        placed.x += box.x
        placed.y += box.y
        draw(texture, from: nil, to: placed)
        return true
    }
}
