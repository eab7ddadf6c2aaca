#ifndef SPLASHBOARD_CFONTCONFIG_SHIM_H
#define SPLASHBOARD_CFONTCONFIG_SHIM_H

#include <fontconfig/fontconfig.h>

/// The pattern property naming a font's file (FC_FILE is a string macro).
static inline const char *splash_fc_file(void) { return FC_FILE; }

/// The pattern property naming a face inside a font collection (FC_INDEX).
static inline const char *splash_fc_index(void) { return FC_INDEX; }

/// The pattern property holding the characters a font covers (FC_CHARSET).
static inline const char *splash_fc_charset(void) { return FC_CHARSET; }

/// The pattern property naming a font's family (FC_FAMILY).
static inline const char *splash_fc_family(void) { return FC_FAMILY; }

/// The pattern property holding a font's weight (FC_WEIGHT), and the weight of bold.
static inline const char *splash_fc_weight(void) { return FC_WEIGHT; }
static inline int splash_fc_weight_bold(void) { return FC_WEIGHT_BOLD; }

#endif
