#ifndef SPLASHBOARD_CQRENCODE_SHIM_H
#define SPLASHBOARD_CQRENCODE_SHIM_H

#include <qrencode.h>

/// Encodes `text` as a QR code of the smallest version that holds it, at error correction
/// level M, 8-bit mode, case kept; NULL when it cannot (QRcode_encodeString's enums and
/// defaults, fixed here so that Swift need not name them).
static inline QRcode *splash_qr_encode(const char *text) {
    return QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1);
}

/// Whether the module at `x`, `y` of `code` is dark (the low bit of its byte).
static inline int splash_qr_dark(const QRcode *code, int x, int y) {
    return code->data[y * code->width + x] & 1;
}

#endif
