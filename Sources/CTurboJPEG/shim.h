#ifndef SPLASHBOARD_CTURBOJPEG_SHIM_H
#define SPLASHBOARD_CTURBOJPEG_SHIM_H

#include <turbojpeg.h>

/// `dimension` scaled by `factor`, rounded up as the decoder rounds it (TJSCALED is a macro).
static inline int splash_tj_scaled(int dimension, tjscalingfactor factor) {
    return TJSCALED(dimension, factor);
}

/// The flags the kiosk decodes with: stop on a JPEG with more than 500 scans (the
/// decoder's own guard against pictures whose decode walks the image once per scan).
static inline int splash_tj_decode_flags(void) { return TJFLAG_LIMITSCANS; }

#endif
