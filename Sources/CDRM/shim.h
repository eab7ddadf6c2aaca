#ifndef SPLASHBOARD_CDRM_SHIM_H
#define SPLASHBOARD_CDRM_SHIM_H

#include <errno.h>
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

/// Whether a mode was asked for on the kernel's command line (`video=`; the kernel adds
/// it to the connector's list as DRM_MODE_TYPE_USERDEF, a macro).
static inline int splash_drm_mode_is_userdef(const drmModeModeInfo *mode) {
    return (mode->type & DRM_MODE_TYPE_USERDEF) != 0;
}

/// The value of a connector's enum property `name` as the property's own name for it
/// ("Right Side Up", "Bad"), copied into `out` (`size` bytes); 0 when found, -1 when the
/// connector has no such property.
static inline int splash_drm_connector_enum(int fd, uint32_t connector, const char *name, char *out, size_t size) {
    drmModeObjectPropertiesPtr props = drmModeObjectGetProperties(fd, connector, DRM_MODE_OBJECT_CONNECTOR);
    if (!props) return -1;
    int found = -1;
    for (uint32_t i = 0; i < props->count_props && found < 0; i++) {
        drmModePropertyPtr prop = drmModeGetProperty(fd, props->props[i]);
        if (!prop) continue;
        if (strcmp(prop->name, name) == 0 && (prop->flags & DRM_MODE_PROP_ENUM)) {
            for (int e = 0; e < prop->count_enums; e++) {
                if (prop->enums[e].value == props->prop_values[i]) {
                    strncpy(out, prop->enums[e].name, size - 1);
                    out[size - 1] = 0;
                    found = 0;
                    break;
                }
            }
        }
        drmModeFreeProperty(prop);
    }
    drmModeFreeObjectProperties(props);
    return found;
}

/// Tells a manual-update display (USB, SPI panels through DRM) which rectangle of `fb`
/// changed; 0, or -1 with errno (ENOSYS where the driver updates by itself).
static inline int splash_drm_dirty(int fd, uint32_t fb, uint16_t x1, uint16_t y1, uint16_t x2, uint16_t y2) {
    drmModeClip clip = { .x1 = x1, .y1 = y1, .x2 = x2, .y2 = y2 };
    int r = drmModeDirtyFB(fd, fb, &clip, 1);
    if (r < 0) { errno = -r; return -1; }
    return 0;
}

/// Stops being the device's DRM master (a switch to another virtual terminal), or becomes
/// it again; 0 or -1 with errno.
static inline int splash_drm_drop_master(int fd) { return drmDropMaster(fd); }
static inline int splash_drm_set_master(int fd) { return drmSetMaster(fd); }

#endif
