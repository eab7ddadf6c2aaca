import CSDL2
import SplashCore

/// What a screen is drawn on: a renderer with the textures it made, the pixels it draws
/// into when it draws in software, and the layout size. The canvas has one for the
/// screen (new whenever the screen's framebuffer changes); a frame drawn ahead off the
/// screen has one of its own, with its own renderer, and takes it away when done.
/// Decoded pictures are shared between them through the canvas's `PictureShelf`.
public final class Surface {
    let renderer: OpaquePointer
    /// The pixels the renderer draws on, when frames are drawn in software and unrotated:
    /// opaque pictures are then blitted straight onto them, without a texture.
    let pixels: UnsafeMutablePointer<SDL_Surface>?
    /// The size screens are laid out in.
    public internal(set) var layoutSize: Size
    /// Every run of text drawn on this surface since it was handed out, with where its
    /// glyphs went: what a test holds to the screen and to the boxes of the layout.
    public internal(set) var textRuns: [(text: String, rect: Rect)] = []
    let shelf: PictureShelf
    /// Pictures uploaded to this renderer (with transparency, or where frames are not
    /// drawn in software), by path.
    var textures: [String: (texture: OpaquePointer, original: Size, scale: Double)] = [:]
    private var ownsRenderer: Bool

    /// A surface on `renderer`; `ownsRenderer` destroys it with the surface.
    init(renderer: OpaquePointer, pixels: UnsafeMutablePointer<SDL_Surface>?, layoutSize: Size, shelf: PictureShelf,
         ownsRenderer: Bool) {
        self.renderer = renderer
        self.pixels = pixels
        self.layoutSize = layoutSize
        self.shelf = shelf
        self.ownsRenderer = ownsRenderer
    }

    deinit { close() }

    /// Destroys the textures, and the renderer when it is this surface's; nothing may be
    /// drawn on it afterwards.
    func close() {
        releaseTextures(except: [])
        if ownsRenderer { SDL_DestroyRenderer(renderer) }
        ownsRenderer = false
    }

    /// Destroys the textures of the pictures at `paths`.
    func releaseTextures(of paths: Set<String>) {
        releaseTextures(except: Set(textures.keys).subtracting(paths))
    }

    /// Destroys the textures of pictures other than `paths`.
    func releaseTextures(except paths: Set<String>) {
        for (path, entry) in textures where !paths.contains(path) {
            SDL_DestroyTexture(entry.texture)
            textures[path] = nil
        }
    }

    /// Whether frames are drawn in software straight onto pixels that stay between frames.
    var drawsInSoftware: Bool { pixels != nil }

    /// Draws what the renderer still has queued.
    func flush() {
        SDL_RenderFlush(renderer)
    }
}
