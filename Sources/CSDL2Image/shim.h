#ifndef SPLASHBOARD_CSDL2IMAGE_SHIM_H
#define SPLASHBOARD_CSDL2IMAGE_SHIM_H

#include <SDL2/SDL.h>
#include <SDL2/SDL_image.h>

#endif
