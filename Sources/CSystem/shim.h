#ifndef SPLASHBOARD_CSYSTEM_SHIM_H
#define SPLASHBOARD_CSYSTEM_SHIM_H

#include <malloc.h>
#include <sys/ioctl.h>
#include <linux/input.h>

/// Makes glibc serve every allocation of `bytes` or more with its own mapping, returned
/// to the system when freed (mallopt(M_MMAP_THRESHOLD); the macro is not importable).
/// Setting it also stops glibc from raising the threshold after large frees.
static inline int splash_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

/// Reads the range of an absolute axis of an evdev device (EVIOCGABS is a macro).
static inline int splash_evdev_abs_info(int fd, unsigned axis, struct input_absinfo *info) {
    return ioctl(fd, EVIOCGABS(axis), info);
}

/// Reads which codes of event type `type` a device reports, as a bit array of `length`
/// bytes (EVIOCGBIT is a macro); returns the bytes written or -1.
static inline int splash_evdev_bits(int fd, unsigned type, unsigned char *bits, unsigned length) {
    return ioctl(fd, EVIOCGBIT(type, length), bits);
}

/// Reads which keys are held down now (EVIOCGKEY is a macro).
static inline int splash_evdev_key_state(int fd, unsigned char *bits, unsigned length) {
    return ioctl(fd, EVIOCGKEY(length), bits);
}

#endif
