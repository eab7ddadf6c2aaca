import CSDL2
import FoundationEssentials
import SplashCore
import SplashPictures
import SplashServices

/// Pictures: decoded once per screen (or ahead, on another thread) at about the size they
/// are drawn at, kept while the screen is up, drawn fitted or filled; thumbnails from the
/// database.
extension Surface {
    /// A picture ready to draw on this surface.
    private enum Ready {
        /// Uploaded to this surface's renderer.
        case texture(OpaquePointer)
        /// Kept as decoded, blitted onto this surface's pixels.
        case pixels(DecodedPicture)
    }

    /// The pixel size of the image at `path`, from its header (nothing is decoded).
    public func imageSize(_ path: String) throws -> Size {
        try shelf.size(of: path)
    }

    /// Whether the picture at `path` may have transparent pixels (a PNG, WebP or GIF), once
    /// its size is known.
    public func imageMayBeTransparent(_ path: String) -> Bool {
        shelf.mayBeTransparent(path)
    }

    /// The picture at `path` ready to draw with at least `scale` pixels per pixel of the
    /// original: what is kept when it is large enough, else decoded (again) at that scale.
    private func picture(_ path: String, scale: Double) throws -> Ready {
        let enough = min(1, scale) - 1e-9
        if pixels != nil, let kept = shelf.decoded[path], kept.heldScale >= enough { return .pixels(kept) }
        if let made = textures[path], made.scale >= enough { return .texture(made.texture) }
        let decoded = try shelf.decode(path, scale: scale)
        let surface = decoded.surface
        if pixels != nil, !DecodedPicture.hasTransparency(surface) {
            // Opaque pictures stay as decoded and are blitted onto the frame: no texture copy.
            let picture = DecodedPicture(surface, original: decoded.original)
            shelf.keep(picture, for: path)
            return .pixels(picture)
        }
        defer { SDL_FreeSurface(surface) }
        guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else {
            throw DisplayError.badImage(path: path, reason: sdlErrorText())
        }
        SDL_SetTextureScaleMode(texture, SDL_ScaleModeLinear)
        if let old = textures[path] { SDL_DestroyTexture(old.texture) }
        textures[path] = (texture, decoded.original, decoded.scale)
        return .texture(texture)
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
    public func drawImage(_ path: String, in box: Rect, mode: ImageFit, snap: Bool = true, focus: FocusPoint = .centre) throws {
        let size = try imageSize(path)
        let placement = mode.placement(of: size, on: Size(width: box.width, height: box.height), snap: snap, focus: focus)
        var dst = placement.destination
        dst.x += box.x
        dst.y += box.y
        let source = placement.source
        switch try picture(path, scale: ImageFit.scale(of: placement)) {
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
            // SDL clips a source rectangle to its texture.
            draw(texture, from: source.scaled(by: textures[path]?.scale ?? 1), to: dst)
        }
    }

    /// Draws `source` of a frame (a clip's frame in the media process's ring, `stride`
    /// bytes a line, laid out as `layout` says) into `destination`, unscaled: straight onto
    /// the frame's pixels where frames are drawn in software — a planar YUV frame turned
    /// into them by SDL's converter as it goes —, else through a texture.
    /// `blends`: its alpha is drawn over what is there (an animated GIF's transparency).
    func drawFrame(_ bytes: UnsafeRawPointer, width: Int, height: Int, stride: Int, layout: FrameLayout = .bgra,
                   from source: Rect, to destination: Rect, blends: Bool = false) {
        if layout == .i420 {
            drawPlanarFrame(bytes, width: width, height: height, stride: stride, from: source, to: destination)
            return
        }
        guard let frame = SDL_CreateRGBSurfaceWithFormatFrom(UnsafeMutableRawPointer(mutating: bytes), Int32(width),
                                                             Int32(height), 32, Int32(stride),
                                                             SDL_PIXELFORMAT_ARGB8888.rawValue) else { return }
        defer { SDL_FreeSurface(frame) }
        SDL_SetSurfaceBlendMode(frame, blends ? SDL_BLENDMODE_BLEND : SDL_BLENDMODE_NONE)
        if let pixels {
            flush()
            var src = SDL_Rect(source)
            var dst = SDL_Rect(destination)
            SDL_UpperBlit(frame, &src, pixels, &dst)
            return
        }
        guard let texture = SDL_CreateTextureFromSurface(renderer, frame) else { return }
        defer { SDL_DestroyTexture(texture) }
        SDL_SetTextureBlendMode(texture, blends ? SDL_BLENDMODE_BLEND : SDL_BLENDMODE_NONE)
        draw(texture, from: source, to: destination)
    }

    /// A planar YUV 4:2:0 frame: converted straight into the frame's pixels when it is shown
    /// whole inside them (32-bit pixels), else uploaded to a YUV texture.
    private func drawPlanarFrame(_ bytes: UnsafeRawPointer, width: Int, height: Int, stride: Int, from source: Rect,
                                 to destination: Rect) {
        // BT.601, as libswscale turns the other frames (and the thumbnails) into RGB.
        SDL_SetYUVConversionMode(SDL_YUV_CONVERSION_BT601)
        let whole = source == Rect(x: 0, y: 0, width: width, height: height) && destination.width == width
            && destination.height == height
        if let pixels {
            flush()
            let surface = pixels.pointee
            let format = surface.format.pointee.format
            let inside = destination.x >= 0 && destination.y >= 0 && destination.maxX <= Int(surface.w)
                && destination.maxY <= Int(surface.h)
            if whole, inside, surface.format.pointee.BytesPerPixel == 4,
               format == SDL_PIXELFORMAT_ARGB8888.rawValue || format == SDL_PIXELFORMAT_RGB888.rawValue {
                let target = surface.pixels! + destination.y * Int(surface.pitch) + destination.x * 4
                // XRGB8888 is ARGB8888 with its alpha byte unread.
                SDL_ConvertPixels(Int32(width), Int32(height), SDL_PIXELFORMAT_IYUV.rawValue, bytes, Int32(stride),
                                  SDL_PIXELFORMAT_ARGB8888.rawValue, target, surface.pitch)
                return
            }
        }
        guard let texture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_IYUV.rawValue,
                                              Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), Int32(width), Int32(height))
        else { return }
        defer { SDL_DestroyTexture(texture) }
        let y = bytes.assumingMemoryBound(to: UInt8.self)
        let u = y + stride * height
        let v = u + (stride / 2) * (height / 2)
        SDL_UpdateYUVTexture(texture, nil, y, Int32(stride), u, Int32(stride / 2), v, Int32(stride / 2))
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_NONE)
        draw(texture, from: source, to: destination)
    }

    /// The largest thumbnail decoded.
    static let thumbnailBytes = 256 << 10

    /// Decodes a JPEG held in memory (a thumbnail from the database) and draws it fitted
    /// into `box`; false when it cannot be decoded.
    @discardableResult
    public func drawJPEG(_ bytes: [UInt8], in box: Rect) -> Bool {
        // The network process wrote it: held to what a thumbnail is (a JPEG of at most
        // 256 KiB fitting a 320 px square, within the decode budget) before it is decoded.
        guard bytes.count <= Self.thumbnailBytes, ImageHeader.kind(of: Array(bytes.prefix(3))) == .jpeg,
              let header = try? ImageHeader.parse(bytes), header.kind == .jpeg,
              max(header.width, header.height) <= ImageValidator.thumbnailSide,
              (try? bytes.withUnsafeBytes { try ImageHeader.checkDecodeWork($0, header: header) }) != nil
        else { return false }
        guard let decoded = try? ImageDecoder.decode(Data(bytes), scale: 1, into: SurfacePixels.self) else { return false }
        let surface = decoded.surface
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
