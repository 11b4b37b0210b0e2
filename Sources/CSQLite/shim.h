#ifndef ASSENT_CSQLITE_SHIM_H
#define ASSENT_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
