#ifndef SPLASHBOARD_CX11_SHIM_H
#define SPLASHBOARD_CX11_SHIM_H

#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/extensions/dpms.h>
#include <dlfcn.h>

/// Xlib and its DPMS extension are loaded when they are first used (a window on X11):
/// the display program links neither, so the console kiosk maps neither. `SPLASH_X` is the
/// function `fn` of the library `lib`, with its own type, or NULL when it cannot be loaded.
static inline void *splash_x11_library(const char *lib) {
    void *handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    return handle ? handle : dlopen(lib, RTLD_NOW | RTLD_LOCAL);
}
static inline void *splash_x11_symbol(const char *lib, const char *fn) {
    void *handle = splash_x11_library(lib);
    return handle ? dlsym(handle, fn) : NULL;
}
#define SPLASH_X(lib, fn) ((__typeof__(&fn))splash_x11_symbol(lib, #fn))
#define SPLASH_XLIB "libX11.so.6"
#define SPLASH_XEXT "libXext.so.6"

/// The window named by `property` (a WINDOW-typed property) on `window`, or None.
static inline Window splash_x11_window_property(Display *display, Window window, Atom property) {
    __typeof__(&XGetWindowProperty) get = SPLASH_X(SPLASH_XLIB, XGetWindowProperty);
    __typeof__(&XFree) release = SPLASH_X(SPLASH_XLIB, XFree);
    if (!get || !release) return None;
    Atom type = None;
    int format = 0;
    unsigned long count = 0, after = 0;
    unsigned char *data = NULL;
    Window found = None;
    if (get(display, window, property, 0, 1, False, XA_WINDOW, &type, &format, &count, &after,
                           &data) == Success && type == XA_WINDOW && format == 32 && count == 1 && data) {
        found = *(Window *)data;
    }
    if (data) release(data);
    return found;
}

/// 1 when an EWMH window manager runs on the X display `name` (NULL: $DISPLAY), 0 when
/// none does, -1 when the display cannot be opened. Per EWMH, the root window names a
/// check window in _NET_SUPPORTING_WM_CHECK that names itself the same way.
static inline int splash_x11_window_manager_running(const char *name) {
    __typeof__(&XOpenDisplay) open_display = SPLASH_X(SPLASH_XLIB, XOpenDisplay);
    __typeof__(&XCloseDisplay) close_display = SPLASH_X(SPLASH_XLIB, XCloseDisplay);
    __typeof__(&XInternAtom) intern = SPLASH_X(SPLASH_XLIB, XInternAtom);
    if (!open_display || !close_display || !intern) return -1;
    Display *display = open_display(name);
    if (!display) return -1;
    int running = 0;
    Atom check = intern(display, "_NET_SUPPORTING_WM_CHECK", True);
    if (check != None) {
        Window child = splash_x11_window_property(display, DefaultRootWindow(display), check);
        running = child != None && splash_x11_window_property(display, child, check) == child;
    }
    close_display(display);
    return running;
}

/// Forces the monitor of the X display `name` (NULL: $DISPLAY) off (`on` 0) or on with the
/// DPMS extension: 1 when done, 0 when the server has no DPMS or the monitor cannot do it,
/// -1 when the display cannot be opened.
static inline int *splash_x11_error_count(void) {
    static int count;
    return &count;
}
static inline int splash_x11_count_error(Display *display, XErrorEvent *event) {
    (void)display; (void)event;
    (*splash_x11_error_count())++;
    return 0;
}
static inline int splash_x11_dpms_force(const char *name, int on) {
    __typeof__(&XOpenDisplay) open_display = SPLASH_X(SPLASH_XLIB, XOpenDisplay);
    __typeof__(&XCloseDisplay) close_display = SPLASH_X(SPLASH_XLIB, XCloseDisplay);
    __typeof__(&XSetErrorHandler) set_handler = SPLASH_X(SPLASH_XLIB, XSetErrorHandler);
    __typeof__(&XSync) sync = SPLASH_X(SPLASH_XLIB, XSync);
    __typeof__(&DPMSQueryExtension) query = SPLASH_X(SPLASH_XEXT, DPMSQueryExtension);
    __typeof__(&DPMSCapable) capable = SPLASH_X(SPLASH_XEXT, DPMSCapable);
    __typeof__(&DPMSInfo) info = SPLASH_X(SPLASH_XEXT, DPMSInfo);
    __typeof__(&DPMSEnable) enable = SPLASH_X(SPLASH_XEXT, DPMSEnable);
    __typeof__(&DPMSDisable) disable = SPLASH_X(SPLASH_XEXT, DPMSDisable);
    __typeof__(&DPMSForceLevel) force = SPLASH_X(SPLASH_XEXT, DPMSForceLevel);
    if (!open_display || !close_display || !set_handler || !sync || !query || !capable || !info || !enable || !disable
        || !force) return -1;
    Display *display = open_display(name);
    if (!display) return -1;
    // An X error here is an answer, not a reason for Xlib to end the process.
    int (*before)(Display *, XErrorEvent *) = set_handler(splash_x11_count_error);
    *splash_x11_error_count() = 0;
    // DPMS switched on to turn the monitor off is switched off again when it is lit.
    static int enabled_here;
    int event = 0, error = 0, done = 0;
    CARD16 level = 0;
    BOOL enabled = 0;
    if (query(display, &event, &error) && capable(display) && info(display, &level, &enabled)) {
        if (on && !enabled) {
            done = 1;  // DPMS off: nothing keeps the monitor dark
        } else {
            if (!on && !enabled) { enable(display); enabled_here = 1; }
            force(display, on ? DPMSModeOn : DPMSModeOff);
            if (on && enabled_here) { disable(display); enabled_here = 0; }
            sync(display, False);
            done = *splash_x11_error_count() == 0;
        }
    }
    set_handler(before);
    close_display(display);
    return done;
}

/// The DPMS power level of the X display `name`'s monitor: 0 on, 1 standby, 2 suspend,
/// 3 off; -1 when it cannot be told.
static inline int splash_x11_dpms_level(const char *name) {
    __typeof__(&XOpenDisplay) open_display = SPLASH_X(SPLASH_XLIB, XOpenDisplay);
    __typeof__(&XCloseDisplay) close_display = SPLASH_X(SPLASH_XLIB, XCloseDisplay);
    __typeof__(&DPMSQueryExtension) query = SPLASH_X(SPLASH_XEXT, DPMSQueryExtension);
    __typeof__(&DPMSInfo) info = SPLASH_X(SPLASH_XEXT, DPMSInfo);
    if (!open_display || !close_display || !query || !info) return -1;
    Display *display = open_display(name);
    if (!display) return -1;
    int event = 0, error = 0, level = -1;
    CARD16 power = 0;
    BOOL enabled = 0;
    if (query(display, &event, &error) && info(display, &power, &enabled)) level = power;
    close_display(display);
    return level;
}
#endif
