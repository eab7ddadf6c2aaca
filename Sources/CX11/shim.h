#ifndef SPLASHBOARD_CX11_SHIM_H
#define SPLASHBOARD_CX11_SHIM_H

#include <X11/Xlib.h>
#include <X11/Xatom.h>

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

#endif
