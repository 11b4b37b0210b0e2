#ifndef ASSENT_CURL_SHIMS_H
#define ASSENT_CURL_SHIMS_H
// Fixed-signature wrappers around libcurl's variadic calls (curl_easy_setopt, curl_multi_setopt,
// curl_easy_getinfo) and its CURLMsg union, for AssentServer's HTTP/2 client. Each returns what libcurl
// returned (a CURLcode / CURLMcode as int); the Swift caller checks it.
#include <stddef.h>
#include <curl/curl.h>

#ifdef __cplusplus
extern "C" {
#endif

/// `curl_easy_setopt(easy, option, (long)value)`.
int assent_curl_easy_setopt_long(CURL *_Nonnull easy, int option, long value);
/// `curl_easy_setopt(easy, option, value)` for a string option (libcurl copies it).
int assent_curl_easy_setopt_string(CURL *_Nonnull easy, int option, const char *_Nullable value);
/// `curl_easy_setopt(easy, option, value)` for a pointer option (slist, private data, write data).
int assent_curl_easy_setopt_pointer(CURL *_Nonnull easy, int option, void *_Nullable value);
/// Sets CURLOPT_WRITEFUNCTION.
int assent_curl_easy_set_write_function(
    CURL *_Nonnull easy,
    size_t (*_Nonnull function)(char *_Nonnull data, size_t size, size_t count, void *_Nullable context));
/// Sets CURLOPT_HEADERFUNCTION (called once per response header line).
int assent_curl_easy_set_header_function(
    CURL *_Nonnull easy,
    size_t (*_Nonnull function)(char *_Nonnull data, size_t size, size_t count, void *_Nullable context));
/// Copies `length` bytes of `body` as the POST body (CURLOPT_POSTFIELDSIZE_LARGE + CURLOPT_COPYPOSTFIELDS).
int assent_curl_easy_set_body(CURL *_Nonnull easy, const char *_Nonnull body, size_t length);
/// `curl_easy_getinfo(easy, info, &long)`.
int assent_curl_easy_getinfo_long(CURL *_Nonnull easy, int info, long *_Nonnull value);
/// `curl_multi_setopt(multi, option, (long)value)`.
int assent_curl_multi_setopt_long(CURLM *_Nonnull multi, int option, long value);
/// Reads the next finished transfer from `curl_multi_info_read`: 1 with `*easy` and `*result` set, 0 when none.
int assent_curl_multi_next_done(CURLM *_Nonnull multi, CURL *_Nullable *_Nonnull easy, int *_Nonnull result);

/// The option and info constants Swift needs (some are enums libcurl builds with macros).
enum {
    ASSENT_CURLOPT_URL = CURLOPT_URL,
    ASSENT_CURLOPT_HTTPHEADER = CURLOPT_HTTPHEADER,
    ASSENT_CURLOPT_WRITEDATA = CURLOPT_WRITEDATA,
    ASSENT_CURLOPT_HEADERDATA = CURLOPT_HEADERDATA,
    ASSENT_CURLOPT_PRIVATE = CURLOPT_PRIVATE,
    ASSENT_CURLOPT_HTTP_VERSION = CURLOPT_HTTP_VERSION,
    ASSENT_CURLOPT_PIPEWAIT = CURLOPT_PIPEWAIT,
    ASSENT_CURLOPT_TIMEOUT_MS = CURLOPT_TIMEOUT_MS,
    ASSENT_CURLOPT_CONNECTTIMEOUT_MS = CURLOPT_CONNECTTIMEOUT_MS,
    ASSENT_CURLOPT_CAINFO = CURLOPT_CAINFO,
    ASSENT_CURLOPT_NOSIGNAL = CURLOPT_NOSIGNAL,
    ASSENT_CURLOPT_CUSTOMREQUEST = CURLOPT_CUSTOMREQUEST,
    ASSENT_CURLOPT_PROTOCOLS_STR = CURLOPT_PROTOCOLS_STR,
    ASSENT_CURLOPT_FOLLOWLOCATION = CURLOPT_FOLLOWLOCATION,
    ASSENT_CURLOPT_USERAGENT = CURLOPT_USERAGENT,
    ASSENT_CURL_HTTP_VERSION_2TLS = CURL_HTTP_VERSION_2TLS,
    ASSENT_CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE = CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE,
    ASSENT_CURLINFO_RESPONSE_CODE = CURLINFO_RESPONSE_CODE,
    ASSENT_CURLINFO_NUM_CONNECTS = CURLINFO_NUM_CONNECTS,
    ASSENT_CURLINFO_HTTP_VERSION = CURLINFO_HTTP_VERSION,
    ASSENT_CURLMOPT_PIPELINING = CURLMOPT_PIPELINING,
    ASSENT_CURLMOPT_MAX_HOST_CONNECTIONS = CURLMOPT_MAX_HOST_CONNECTIONS,
    ASSENT_CURLMOPT_MAX_CONCURRENT_STREAMS = CURLMOPT_MAX_CONCURRENT_STREAMS,
    ASSENT_CURLPIPE_MULTIPLEX = CURLPIPE_MULTIPLEX,
};

#ifdef __cplusplus
}
#endif

#endif
