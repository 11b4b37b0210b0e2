#ifndef ASSENT_CPOSTGRES_SHIM_H
#define ASSENT_CPOSTGRES_SHIM_H
#include <libpq-fe.h>
#endif
