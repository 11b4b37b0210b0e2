#ifndef ASSENT_CCURL_SHIM_H
#define ASSENT_CCURL_SHIM_H
#include <curl/curl.h>
#endif
