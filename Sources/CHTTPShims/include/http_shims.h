#ifndef ASSENT_HTTP_SHIMS_H
#define ASSENT_HTTP_SHIMS_H

// Fixed-signature wrappers around libmicrohttpd for AssentHTTP.
//
// Swift cannot call MHD's variadic functions (MHD_start_daemon,
// MHD_get_connection_info) and imports its closed enums under other names, so
// every call that needs either goes through here. Callbacks into Swift use
// plain ints instead of MHD enums.

#include <stddef.h>
#include <stdint.h>

struct MHD_Connection;

/// Opaque handle: the MHD daemon plus the callback table it calls into.
typedef struct assent_http_daemon assent_http_daemon;

/// Called once per request, when the request line has been read. `uri` is the
/// raw request target (path and query, not decoded). The return value becomes
/// the request's context pointer (`*request_context` below).
typedef void *_Nullable (*assent_http_request_started_fn)(
    void *_Nullable context, const char *_Nonnull uri,
    struct MHD_Connection *_Nonnull connection);

/// MHD's access handler. Return 1 to go on, 0 to close the connection.
typedef int (*assent_http_access_fn)(
    void *_Nullable context, struct MHD_Connection *_Nonnull connection,
    const char *_Nonnull url, const char *_Nonnull method,
    const char *_Nullable upload_data, size_t *_Nonnull upload_data_size,
    void *_Nullable *_Nonnull request_context);

/// Called when a request ends, successfully or not. `termination` is
/// MHD_RequestTerminationCode as an int (0 = completed OK).
typedef void (*assent_http_request_completed_fn)(
    void *_Nullable context, struct MHD_Connection *_Nullable connection,
    void *_Nullable *_Nullable request_context, int termination);

/// Called when a TCP connection opens (`opened` = 1) or closes (0).
typedef void (*assent_http_connection_fn)(void *_Nullable context, int opened);

/// libmicrohttpd's own error log, formatted, without a trailing newline.
typedef void (*assent_http_log_fn)(void *_Nullable context, const char *_Nonnull message);

typedef struct assent_http_callbacks {
  void *_Nullable context;
  assent_http_request_started_fn _Nonnull request_started;
  assent_http_access_fn _Nonnull access;
  assent_http_request_completed_fn _Nonnull request_completed;
  assent_http_connection_fn _Nonnull connection_changed;
  assent_http_log_fn _Nonnull log_message;
} assent_http_callbacks;

/// A TLS certificate chain and private key that can be replaced while a
/// daemon serves with them (see assent_http_tls_reload).
typedef struct assent_http_tls assent_http_tls;

/// Parses a PEM certificate chain (leaf first) and a PEM private key (PKCS#8,
/// PKCS#1 or SEC1, unencrypted) and checks that they belong together. Returns
/// a new holder, or NULL with a message in `error` (NUL-terminated).
assent_http_tls *_Nullable assent_http_tls_create(const char *_Nonnull cert, size_t cert_length,
                                                  const char *_Nonnull key, size_t key_length,
                                                  char *_Nonnull error, size_t error_capacity);

/// Parses and checks new credentials as assent_http_tls_create does and, when
/// they are good, serves them to every handshake that starts from now on;
/// connections already established keep their session. Returns 0, or -1 with
/// a message in `error` (the holder then keeps serving what it served).
int assent_http_tls_reload(assent_http_tls *_Nonnull tls, const char *_Nonnull cert,
                           size_t cert_length, const char *_Nonnull key, size_t key_length,
                           char *_Nonnull error, size_t error_capacity);

/// Frees the holder and every credential it served. Only once no daemon uses
/// it any more (after assent_http_stop).
void assent_http_tls_free(assent_http_tls *_Nonnull tls);

typedef struct assent_http_options {
  unsigned int thread_pool_size;
  unsigned int connection_limit;
  unsigned int per_ip_connection_limit;   // 0 = no limit
  unsigned int connection_timeout_seconds;
  size_t connection_memory_limit;
  size_t connection_memory_increment;
  int ipv6;                               // the listen socket is AF_INET6
  int allow_upgrade;                      // MHD_ALLOW_UPGRADE (WebSocket routes exist)
  /// When set: HTTPS only, TLS 1.2 and 1.3 (GnuTLS through MHD_USE_TLS), with
  /// the holder's current credentials picked per handshake. It must outlive
  /// the daemon.
  assent_http_tls *_Nullable tls;
} assent_http_options;

/// Creates a non-blocking TCP listen socket bound to `host` (a numeric IPv4 or
/// IPv6 address, or a name resolved with getaddrinfo) and `port` (0 = any).
/// Returns 0 and sets `*out_fd`, `*out_port` and `*out_ipv6`; or returns an
/// errno value (EADDRINUSE, EACCES, ...), or -1 if `host` did not resolve.
int assent_http_listen(const char *_Nonnull host, uint16_t port, int backlog,
                       int *_Nonnull out_fd, uint16_t *_Nonnull out_port,
                       int *_Nonnull out_ipv6);

/// Starts a daemon (internal polling thread pool, epoll, suspend/resume) on an
/// already listening socket, taking ownership of it: on failure (NULL) the
/// socket is closed too. The callbacks are copied; their `context` must
/// outlive the daemon.
assent_http_daemon *_Nullable assent_http_start(
    int listen_fd, const assent_http_options *_Nonnull options,
    const assent_http_callbacks *_Nonnull callbacks);

/// Stops accepting: MHD_quiesce_daemon, then shutdown() of the listen socket so
/// that the kernel refuses new connections at once (the descriptor itself stays
/// open until assent_http_stop, as MHD requires with internal threads).
/// Returns 0, or -1 if the daemon was not listening.
int assent_http_quiesce(assent_http_daemon *_Nonnull daemon);

/// Stops the daemon (MHD_stop_daemon), closes a quiesced listen socket and
/// frees the handle. No connection may still be suspended without a pending
/// resume.
void assent_http_stop(assent_http_daemon *_Nonnull daemon);

/// Writes the client's numeric address into `buffer` (NUL-terminated).
/// Returns 0, or -1 if unknown.
int assent_http_client_address(struct MHD_Connection *_Nonnull connection,
                               char *_Nonnull buffer, size_t capacity);

/// First value of a request header (case-insensitive name), or NULL.
const char *_Nullable assent_http_header(struct MHD_Connection *_Nonnull connection,
                                         const char *_Nonnull name);

/// Visits every request header in arrival order.
typedef void (*assent_http_header_fn)(void *_Nullable context,
                                      const char *_Nonnull name, size_t name_length,
                                      const char *_Nonnull value, size_t value_length);
void assent_http_headers(struct MHD_Connection *_Nonnull connection,
                         assent_http_header_fn _Nonnull visit, void *_Nullable context);

/// What the access handler checks before reading a body, from one pass over
/// the request headers.
struct assent_http_head {
  /// The size of the headers as sent: the sum of name, value and 4 (": " and
  /// CRLF) over every header.
  size_t bytes;
  /// How many `Content-Length` headers there are.
  unsigned content_lengths;
  /// How many `Transfer-Encoding` headers there are.
  unsigned transfer_encodings;
  /// How many header names hold a space or tab: libmicrohttpd keeps the
  /// whitespace a client put before the colon (`Transfer-Encoding : chunked`)
  /// in the name, which RFC 9112 section 5.1 says to refuse with 400.
  unsigned spaced_names;
};
struct assent_http_head assent_http_head_summary(struct MHD_Connection *_Nonnull connection);

/// Results of assent_http_respond.
enum {
  ASSENT_HTTP_RESPOND_OK = 0,
  ASSENT_HTTP_RESPOND_NO_MEMORY = 1,
  ASSENT_HTTP_RESPOND_BAD_HEADER = 2,
  ASSENT_HTTP_RESPOND_NOT_QUEUED = 3,
};

/// Builds a response from a copy of `body` and queues it. `header_block` holds
/// `name\0value\0` pairs, `header_block_length` bytes in all.
int assent_http_respond(struct MHD_Connection *_Nonnull connection, unsigned int status,
                        const char *_Nullable header_block, size_t header_block_length,
                        const void *_Nullable body, size_t body_length);

/// Called on an MHD worker thread once a 101 head has been handed to the
/// kernel. `request_context` is the request's context pointer. `fd` is a
/// duplicate of the upgraded socket, non-blocking and close-on-exec, that the
/// callee now owns and must close; or -1 with `error` = errno when it could not
/// be made (e.g. EMFILE). `extra` holds bytes that the client sent after the
/// request head and MHD had already read; they are only valid during the call.
///
/// Without TLS the socket is the TCP connection itself (with TCP_NODELAY), and
/// MHD's own descriptor is released right after the call returns
/// (MHD_UPGRADE_ACTION_CLOSE), so the connection no longer counts against MHD's
/// connection limits; `handle` is NULL. Under TLS the socket is one end of a
/// socketpair whose other end MHD's threads encrypt to and decrypt from the
/// client: MHD must keep the connection, so `handle` is non-NULL and the callee
/// passes it to assent_http_upgrade_close once, after closing `fd` (or at once
/// when `fd` is -1).
typedef void (*assent_http_upgraded_fn)(void *_Nullable context, void *_Nullable request_context,
                                        const char *_Nullable extra, size_t extra_length,
                                        int fd, int error, void *_Nullable handle);

/// Tells MHD that the application is done with an upgraded TLS connection
/// (MHD_UPGRADE_ACTION_CLOSE): MHD sends what is left, closes the TLS session
/// and the TCP connection, and frees its slot. Any thread; before
/// assent_http_stop.
void assent_http_upgrade_close(void *_Nonnull handle);

typedef struct assent_http_upgrade_target {
  void *_Nullable context;
  assent_http_upgraded_fn _Nonnull upgraded;
} assent_http_upgrade_target;

/// Queues `101 Switching Protocols` with the `name\0value\0` pairs of
/// `header_block` (which must include `Upgrade`; MHD adds `Connection:
/// Upgrade`). After the head is sent, `target->upgraded` is called; `target`
/// must stay valid until the daemon stops. Needs `allow_upgrade` at start.
/// Returns an ASSENT_HTTP_RESPOND_* value.
int assent_http_respond_upgrade(struct MHD_Connection *_Nonnull connection,
                                const char *_Nullable header_block, size_t header_block_length,
                                const assent_http_upgrade_target *_Nonnull target);

// Event-loop primitives for the WebSocket I/O thread. `struct epoll_event` is
// packed on x86-64, so it never crosses into Swift: tokens and event masks are
// copied into two plain arrays instead.

enum {
  ASSENT_WS_ADD = 1,
  ASSENT_WS_MODIFY = 2,
  ASSENT_WS_DELETE = 3,
};

enum {
  ASSENT_WS_EVENT_IN = 0x001,     // EPOLLIN
  ASSENT_WS_EVENT_OUT = 0x004,    // EPOLLOUT
  ASSENT_WS_EVENT_ERR = 0x008,    // EPOLLERR
  ASSENT_WS_EVENT_HUP = 0x010,    // EPOLLHUP
  ASSENT_WS_EVENT_RDHUP = 0x2000, // EPOLLRDHUP
};

/// epoll_create1(EPOLL_CLOEXEC): a descriptor, or -1.
int assent_ws_epoll_create(void);
/// epoll_ctl with `events` (ASSENT_WS_EVENT_* bits, level-triggered) and a
/// 64-bit `token` returned by assent_ws_epoll_wait. 0, or errno.
int assent_ws_epoll_set(int epoll_fd, int op, int fd, uint32_t events, uint64_t token);
/// epoll_wait for at most `capacity` (<= 256) events: their tokens and masks go
/// to the two arrays. Returns the count (0 on timeout or EINTR), or -errno.
int assent_ws_epoll_wait(int epoll_fd, uint64_t *_Nonnull tokens, uint32_t *_Nonnull events,
                         int capacity, int timeout_ms);
/// A non-blocking, close-on-exec eventfd: a descriptor, or -1.
int assent_ws_wake_create(void);
/// Makes the eventfd readable (wakes the loop).
void assent_ws_wake(int wake_fd);
/// Reads the eventfd back to zero.
void assent_ws_wake_drain(int wake_fd);

/// MHD_suspend_connection / MHD_resume_connection.
void assent_http_suspend(struct MHD_Connection *_Nonnull connection);
void assent_http_resume(struct MHD_Connection *_Nonnull connection);

#endif
