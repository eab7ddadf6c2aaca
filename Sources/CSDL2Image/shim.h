#ifndef SPLASHBOARD_CSDL2IMAGE_SHIM_H
#define SPLASHBOARD_CSDL2IMAGE_SHIM_H

#include <SDL.h>
#include <SDL_image.h>

#endif
