#ifndef SPLASHBOARD_CDRM_SHIM_H
#define SPLASHBOARD_CDRM_SHIM_H

#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

/// Creates a KMS "dumb" buffer of `width`×`height` at 32 bits a pixel
/// (DRM_IOCTL_MODE_CREATE_DUMB is a macro); 0 on success, -1 with errno set.
static inline int splash_drm_create_dumb(int fd, uint32_t width, uint32_t height,
                                         uint32_t *handle, uint32_t *pitch, uint64_t *size) {
    struct drm_mode_create_dumb req;
    memset(&req, 0, sizeof req);
    req.width = width;
    req.height = height;
    req.bpp = 32;
    if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &req) != 0) return -1;
    *handle = req.handle;
    *pitch = req.pitch;
    *size = req.size;
    return 0;
}

/// The offset to give mmap(2) for a dumb buffer (DRM_IOCTL_MODE_MAP_DUMB).
static inline int splash_drm_map_dumb(int fd, uint32_t handle, uint64_t *offset) {
    struct drm_mode_map_dumb req;
    memset(&req, 0, sizeof req);
    req.handle = handle;
    if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &req) != 0) return -1;
    *offset = req.offset;
    return 0;
}

/// Frees a dumb buffer (DRM_IOCTL_MODE_DESTROY_DUMB).
static inline int splash_drm_destroy_dumb(int fd, uint32_t handle) {
    struct drm_mode_destroy_dumb req;
    memset(&req, 0, sizeof req);
    req.handle = handle;
    return drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &req);
}

/// Whether the device can make dumb buffers (DRM_CAP_DUMB_BUFFER).
static inline int splash_drm_has_dumb_buffers(int fd) {
    uint64_t value = 0;
    return drmGetCap(fd, DRM_CAP_DUMB_BUFFER, &value) == 0 && value != 0;
}

/// Asks for a page flip to `fb` with a completion event (DRM_MODE_PAGE_FLIP_EVENT is a macro).
static inline int splash_drm_page_flip(int fd, uint32_t crtc, uint32_t fb) {
    return drmModePageFlip(fd, crtc, fb, DRM_MODE_PAGE_FLIP_EVENT, 0);
}

/// Whether a mode is the connector's preferred one (DRM_MODE_TYPE_PREFERRED is a macro).
static inline int splash_drm_mode_is_preferred(const drmModeModeInfo *mode) {
    return (mode->type & DRM_MODE_TYPE_PREFERRED) != 0;
}

#endif
