#ifndef SPLASHBOARD_CSYSTEM_SHIM_H
#define SPLASHBOARD_CSYSTEM_SHIM_H

#include <malloc.h>

/// Makes glibc serve every allocation of `bytes` or more with its own mapping, returned
/// to the system when freed (mallopt(M_MMAP_THRESHOLD); the macro is not importable).
/// Setting it also stops glibc from raising the threshold after large frees.
static inline int splash_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

#endif
