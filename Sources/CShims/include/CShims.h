#ifndef ASSENT_CSHIMS_H
#define ASSENT_CSHIMS_H
// Umbrella header: one header per wrapped C library.
#include "crypto_shims.h"
#include "http_shims.h"
#endif
