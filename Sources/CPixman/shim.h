#ifndef SPLASHBOARD_CPIXMAN_SHIM_H
#define SPLASHBOARD_CPIXMAN_SHIM_H

#include <pixman.h>

#endif
