#ifndef ASSENT_CQRENCODE_SHIM_H
#define ASSENT_CQRENCODE_SHIM_H
#include <qrencode.h>
#endif
