#ifndef SPLASHBOARD_CWEBP_SHIM_H
#define SPLASHBOARD_CWEBP_SHIM_H

#include <stdint.h>
#include <stddef.h>
#include <webp/decode.h>
#include <webp/encode.h>

/// What a WebP file holds, read from its headers by libwebp (WebPGetFeatures is an
/// inline function over an ABI-versioned call, which Swift cannot call as it is).
/// Returns 0 when the data is a WebP libwebp can read.
static inline int splash_webp_features(const uint8_t *data, size_t size, int *width, int *height, int *alpha,
                                       int *animated) {
    WebPBitstreamFeatures features;
    if (WebPGetFeatures(data, size, &features) != VP8_STATUS_OK) return -1;
    *width = features.width;
    *height = features.height;
    *alpha = features.has_alpha;
    *animated = features.has_animation;
    return 0;
}

#endif
