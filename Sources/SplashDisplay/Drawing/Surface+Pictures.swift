import FoundationEssentials
import SplashCore
import SplashPictures
import SplashServices

/// Pictures: decoded once per screen (or ahead, on another thread) at about the size they
/// are drawn at, kept while the screen is up, drawn fitted or filled; thumbnails from the
/// database.
extension Surface {
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
    private func picture(_ path: String, scale: Double) throws -> DecodedPicture {
        let enough = min(1, scale) - 1e-9
        if let kept = shelf.decoded[path], kept.heldScale >= enough { return kept }
        let decoded = try shelf.decode(path, scale: scale)
        let picture = DecodedPicture(decoded.pixmap, original: decoded.original)
        shelf.keep(picture, for: path)
        return picture
    }

    /// Draws an image fitted (letterboxed) or filled (cropped) into `box`, a letterboxed one
    /// leaving the top-right `clearing` corner to its bars where they have room.
    public func drawImage(_ path: String, in box: Rect, mode: ImageFit, snap: Bool = true, focus: FocusPoint = .centre,
                          clearing corner: Size? = nil) throws {
        let size = try imageSize(path)
        let placement = mode.placement(of: size, on: Size(width: box.width, height: box.height), snap: snap, focus: focus,
                                       clearing: corner)
        var dst = placement.destination
        dst.x += box.x
        dst.y += box.y
        try picture(path, scale: ImageFit.scale(of: placement)).draw(placement.source, to: dst, on: frame)
    }

    /// Draws `source` of a frame (a clip's frame in the media process's ring, `stride`
    /// bytes a line, laid out as `layout` says) into `destination`, unscaled, straight onto
    /// the frame's pixels — a planar YUV frame turned into them as it goes.
    /// `blends`: its alpha is drawn over what is there (an animated GIF's transparency).
    func drawFrame(_ bytes: UnsafeRawPointer, width: Int, height: Int, stride: Int, layout: FrameLayout = .bgra,
                   from source: Rect, to destination: Rect, blends: Bool = false) {
        if layout == .i420 {
            drawPlanarFrame(bytes, width: width, height: height, stride: stride, from: source, to: destination)
            return
        }
        let memory = UnsafeMutableRawPointer(mutating: bytes)
        if !blends, let clip = Pixmap(borrowing: memory, width: width, height: height, pitch: stride, format: .xrgb32) {
            frame.draw(clip, from: source, to: destination)
            return
        }
        // With alpha (straight, as decoded): premultiplied in a copy first; so is a frame
        // whose rows pixman cannot read in place.
        guard let copy = Pixmap(width: width, height: height, format: blends ? .argb32 : .xrgb32) else { return }
        for row in 0..<height {
            (copy.pixels + row * copy.pitch).copyMemory(from: bytes + row * stride, byteCount: width * 4)
        }
        copy.premultiply()
        frame.draw(copy, from: source, to: destination, blend: blends)
    }

    /// A planar YUV 4:2:0 frame (full range BT.601, as the media process writes it):
    /// converted by `PlanarFrame` straight into the frame's pixels where it is shown whole
    /// inside them, else into a frame of its own first.
    private func drawPlanarFrame(_ bytes: UnsafeRawPointer, width: Int, height: Int, stride: Int, from source: Rect,
                                 to destination: Rect) {
        let whole = source == Rect(x: 0, y: 0, width: width, height: height) && destination.width == width
            && destination.height == height
        if whole, destination.clipped(to: frame.bounds) == destination, frame.format != .rgb24 {
            PlanarFrame.convert(bytes, width: width, height: height, stride: stride,
                                into: frame.pixels + destination.y * frame.pitch + destination.x * 4, pitch: frame.pitch)
            return
        }
        guard let rgb = Pixmap(width: width, height: height, format: .xrgb32) else { return }
        PlanarFrame.convert(bytes, width: width, height: height, stride: stride, into: rgb.pixels, pitch: rgb.pitch)
        frame.draw(rgb, from: source, to: destination)
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
        guard let decoded = try? ImageDecoder.pixmap(data: Data(bytes)) else { return false }
        var placed = ImageFit.fit.placement(of: decoded.pixmap.size, on: Size(width: box.width, height: box.height)).destination
        placed.x += box.x
        placed.y += box.y
        frame.draw(decoded.pixmap, from: decoded.pixmap.bounds, to: placed)
        return true
    }
}
