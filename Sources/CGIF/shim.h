#ifndef SPLASHBOARD_CGIF_SHIM_H
#define SPLASHBOARD_CGIF_SHIM_H

#include <gif_lib.h>

#endif
