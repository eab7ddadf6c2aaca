#ifndef SPLASHBOARD_CPNG_SHIM_H
#define SPLASHBOARD_CPNG_SHIM_H

#include <png.h>
#include <string.h>

/// A png_image ready for png_image_begin_read_from_memory (PNG_IMAGE_VERSION is a macro).
static inline void splash_png_prepare(png_image *image) {
    memset(image, 0, sizeof *image);
    image->version = PNG_IMAGE_VERSION;
}

/// Reads 16-bit channels as sRGB, as every other decoder does, rather than as linear light
/// (libpng's simplified API's default for a file that names no gamma), which would come
/// out brighter and washed out.
static inline void splash_png_16bit_is_srgb(png_image *image) {
    image->flags |= PNG_IMAGE_FLAG_16BIT_sRGB;
}

/// Whether the picture has transparency (an alpha channel or a tRNS chunk).
static inline int splash_png_has_alpha(const png_image *image) {
    return (image->format & PNG_FORMAT_FLAG_ALPHA) != 0;
}

/// The formats the kiosk decodes to: B, G, R bytes, or B, G, R, A.
static inline png_uint_32 splash_png_format_bgr(void) { return PNG_FORMAT_BGR; }
static inline png_uint_32 splash_png_format_bgra(void) { return PNG_FORMAT_BGRA; }

/// Whether the read stopped on an error (warnings leave a whole picture).
static inline int splash_png_failed(const png_image *image) {
    return (image->warning_or_error & PNG_IMAGE_ERROR) != 0;
}

#endif
