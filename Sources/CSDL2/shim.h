#ifndef SPLASHBOARD_CSDL2_SHIM_H
#define SPLASHBOARD_CSDL2_SHIM_H

// SDL2's types and constants only: nothing here is linked. A window loads the library
// with dlopen (SDLLibrary); only the tests link it (CSDL2Image).
#include <SDL2/SDL.h>

/// Centred window position (SDL_WINDOWPOS_CENTERED is a macro Swift cannot import).
static inline int splash_windowpos_centered(void) { return SDL_WINDOWPOS_CENTERED; }

/// The mouse id SDL gives to mouse events it synthesises from touches (SDL_TOUCH_MOUSEID).
static inline Uint32 splash_touch_mouse_id(void) { return SDL_TOUCH_MOUSEID; }

/// Surface blit (SDL_BlitSurface is a macro for SDL_UpperBlit).
static inline int splash_blit_surface(SDL_Surface *src, const SDL_Rect *srcrect,
                                      SDL_Surface *dst, SDL_Rect *dstrect) {
    return SDL_BlitSurface(src, srcrect, dst, dstrect);
}

/// Scaled surface blit (SDL_BlitScaled is a macro for SDL_UpperBlitScaled).
static inline int splash_blit_scaled(SDL_Surface *src, const SDL_Rect *srcrect,
                                     SDL_Surface *dst, SDL_Rect *dstrect) {
    return SDL_BlitScaled(src, srcrect, dst, dstrect);
}

/// Whether a surface must be locked before its pixels are touched (SDL_MUSTLOCK is a macro).
static inline int splash_must_lock(SDL_Surface *surface) { return SDL_MUSTLOCK(surface); }

/// Sets a hint; the SDL_HINT_* names are string macros, so callers pass the literal name.
static inline SDL_bool splash_set_hint(const char *name, const char *value) {
    return SDL_SetHint(name, value);
}

#endif
