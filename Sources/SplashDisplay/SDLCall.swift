import CSDL2

/// SDL's last error message as a Swift string.
func sdlError() -> String {
    guard let p = SDL_GetError() else { return "unknown SDL error" }
    let s = String(cString: p)
    return s.isEmpty ? "unknown SDL error" : s
}
