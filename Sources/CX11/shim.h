#ifndef SPLASHBOARD_CX11_SHIM_H
#define SPLASHBOARD_CX11_SHIM_H

#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/extensions/dpms.h>

/// The window named by `property` (a WINDOW-typed property) on `window`, or None.
static inline Window splash_x11_window_property(Display *display, Window window, Atom property) {
    Atom type = None;
    int format = 0;
    unsigned long count = 0, after = 0;
    unsigned char *data = NULL;
    Window found = None;
    if (XGetWindowProperty(display, window, property, 0, 1, False, XA_WINDOW, &type, &format, &count, &after,
                           &data) == Success && type == XA_WINDOW && format == 32 && count == 1 && data) {
        found = *(Window *)data;
    }
    if (data) XFree(data);
    return found;
}

/// 1 when an EWMH window manager runs on the X display `name` (NULL: $DISPLAY), 0 when
/// none does, -1 when the display cannot be opened. Per EWMH, the root window names a
/// check window in _NET_SUPPORTING_WM_CHECK that names itself the same way.
static inline int splash_x11_window_manager_running(const char *name) {
    Display *display = XOpenDisplay(name);
    if (!display) return -1;
    int running = 0;
    Atom check = XInternAtom(display, "_NET_SUPPORTING_WM_CHECK", True);
    if (check != None) {
        Window child = splash_x11_window_property(display, DefaultRootWindow(display), check);
        running = child != None && splash_x11_window_property(display, child, check) == child;
    }
    XCloseDisplay(display);
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
    Display *display = XOpenDisplay(name);
    if (!display) return -1;
    // An X error here is an answer, not a reason for Xlib to end the process.
    int (*before)(Display *, XErrorEvent *) = XSetErrorHandler(splash_x11_count_error);
    *splash_x11_error_count() = 0;
    // DPMS switched on to turn the monitor off is switched off again when it is lit.
    static int enabled_here;
    int event = 0, error = 0, done = 0;
    CARD16 level = 0;
    BOOL enabled = 0;
    if (DPMSQueryExtension(display, &event, &error) && DPMSCapable(display) && DPMSInfo(display, &level, &enabled)) {
        if (on && !enabled) {
            done = 1;  // DPMS off: nothing keeps the monitor dark
        } else {
            if (!on && !enabled) { DPMSEnable(display); enabled_here = 1; }
            DPMSForceLevel(display, on ? DPMSModeOn : DPMSModeOff);
            if (on && enabled_here) { DPMSDisable(display); enabled_here = 0; }
            XSync(display, False);
            done = *splash_x11_error_count() == 0;
        }
    }
    XSetErrorHandler(before);
    XCloseDisplay(display);
    return done;
}

/// The DPMS power level of the X display `name`'s monitor: 0 on, 1 standby, 2 suspend,
/// 3 off; -1 when it cannot be told.
static inline int splash_x11_dpms_level(const char *name) {
    Display *display = XOpenDisplay(name);
    if (!display) return -1;
    int event = 0, error = 0, level = -1;
    CARD16 power = 0;
    BOOL enabled = 0;
    if (DPMSQueryExtension(display, &event, &error) && DPMSInfo(display, &power, &enabled)) level = power;
    XCloseDisplay(display);
    return level;
}
#endif
