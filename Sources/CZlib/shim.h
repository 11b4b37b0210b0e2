#ifndef ASSENT_CZLIB_SHIM_H
#define ASSENT_CZLIB_SHIM_H
#include <zlib.h>
#endif
