#ifndef SPLASHBOARD_CHARFBUZZ_SHIM_H
#define SPLASHBOARD_CHARFBUZZ_SHIM_H

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_SIZES_H
#include <hb.h>
#include <hb-ft.h>

/// FreeType's load flags for the kiosk's text: outlines hinted lightly (vertically only,
/// as SDL_ttf's TTF_HINTING_LIGHT did), rendered as 8-bit coverage (FT_LOAD_TARGET_LIGHT
/// is a macro Swift cannot import).
static inline FT_Int32 splash_ft_load_light(void) { return FT_LOAD_DEFAULT | FT_LOAD_TARGET_LIGHT; }

#endif
