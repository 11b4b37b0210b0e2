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

/// Sets CURLOPT_OPENSOCKETFUNCTION and CURLOPT_OPENSOCKETDATA: `function` sees every address libcurl is about to
/// connect to (each one of happy eyeballs, after any name resolution) and opens the socket, or answers
/// CURL_SOCKET_BAD so that no packet is sent to it.
int assent_curl_easy_set_opensocket_function(
    CURL *_Nonnull easy,
    curl_socket_t (*_Nonnull function)(
        void *_Nullable context, curlsocktype purpose, struct curl_sockaddr *_Nullable address),
    void *_Nullable context);
/// Copies the IP address of an AF_INET or AF_INET6 `address` into `bytes`: 4 or 16, or 0 for any other family.
int assent_curl_sockaddr_ip(const struct curl_sockaddr *_Nonnull address, unsigned char bytes[_Nonnull 16]);
/// What libcurl would do itself: `socket(family, socktype, protocol)` (close-on-exec).
curl_socket_t assent_curl_open_socket(const struct curl_sockaddr *_Nonnull address);

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
    ASSENT_CURLOPT_PROXY = CURLOPT_PROXY,
    ASSENT_CURLOPT_NOPROXY = CURLOPT_NOPROXY,
    ASSENT_CURL_SOCKET_BAD = CURL_SOCKET_BAD,
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
