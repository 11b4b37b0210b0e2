#include "http_shims.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <gnutls/abstract.h>
#include <gnutls/gnutls.h>
#include <microhttpd.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

struct assent_http_daemon {
  struct MHD_Daemon *mhd;
  assent_http_callbacks callbacks;
  int listen_fd;
  int quiesced;
  assent_http_tls *tls;
};

// MARK: - TLS credentials

// One certificate chain and key as GnuTLS hands them to a handshake. A holder
// keeps every set it ever served (`older`), since a handshake that picked one
// may still be using it when a reload replaces it; reloads are rare (SIGHUP),
// so the few kilobytes are kept until the holder is freed.
struct tls_credentials {
  gnutls_pcert_st certs[16];
  unsigned int count;
  gnutls_privkey_t key;
  struct tls_credentials *older;
};

struct assent_http_tls {
  pthread_mutex_t lock;
  struct tls_credentials *current;
};

static void tls_credentials_free(struct tls_credentials *c) {
  for (unsigned int i = 0; i < c->count; i++) gnutls_pcert_deinit(&c->certs[i]);
  if (c->key != NULL) gnutls_privkey_deinit(c->key);
  free(c);
}

static void tls_error(char *error, size_t capacity, const char *what, int code) {
  snprintf(error, capacity, "%s: %s", what, gnutls_strerror(code));
}

// Parses `cert` and `key`, checking that the key is the leaf certificate's.
static struct tls_credentials *tls_credentials_load(const char *cert, size_t cert_length,
                                                    const char *key, size_t key_length,
                                                    char *error, size_t capacity) {
  if (cert_length > UINT32_MAX || key_length > UINT32_MAX) {
    snprintf(error, capacity, "certificate or key too large");
    return NULL;
  }
  gnutls_datum_t cert_datum = {(unsigned char *)cert, (unsigned int)cert_length};
  gnutls_datum_t key_datum = {(unsigned char *)key, (unsigned int)key_length};

  // The pair check GnuTLS makes when credentials are set from memory: a key
  // that is not the certificate's is refused (GNUTLS_E_CERTIFICATE_KEY_MISMATCH).
  gnutls_certificate_credentials_t check;
  int rc = gnutls_certificate_allocate_credentials(&check);
  if (rc < 0) {
    tls_error(error, capacity, "cannot allocate credentials", rc);
    return NULL;
  }
  rc = gnutls_certificate_set_x509_key_mem(check, &cert_datum, &key_datum, GNUTLS_X509_FMT_PEM);
  gnutls_certificate_free_credentials(check);
  if (rc < 0) {
    tls_error(error, capacity, "the certificate and key do not form a usable pair", rc);
    return NULL;
  }

  struct tls_credentials *c = calloc(1, sizeof *c);
  if (c == NULL) {
    snprintf(error, capacity, "out of memory");
    return NULL;
  }
  c->count = sizeof c->certs / sizeof c->certs[0];
  rc = gnutls_pcert_list_import_x509_raw(c->certs, &c->count, &cert_datum, GNUTLS_X509_FMT_PEM, 0);
  if (rc < 0) {
    c->count = 0;
    tls_credentials_free(c);
    tls_error(error, capacity, "cannot read the certificate chain (at most 16 certificates)", rc);
    return NULL;
  }
  rc = gnutls_privkey_init(&c->key);
  if (rc >= 0) rc = gnutls_privkey_import_x509_raw(c->key, &key_datum, GNUTLS_X509_FMT_PEM, NULL, 0);
  if (rc < 0) {
    tls_credentials_free(c);
    tls_error(error, capacity, "cannot read the private key", rc);
    return NULL;
  }
  return c;
}

assent_http_tls *assent_http_tls_create(const char *cert, size_t cert_length, const char *key,
                                        size_t key_length, char *error, size_t error_capacity) {
  struct tls_credentials *c =
      tls_credentials_load(cert, cert_length, key, key_length, error, error_capacity);
  if (c == NULL) return NULL;
  struct assent_http_tls *tls = calloc(1, sizeof *tls);
  if (tls == NULL || pthread_mutex_init(&tls->lock, NULL) != 0) {
    free(tls);
    tls_credentials_free(c);
    snprintf(error, error_capacity, "out of memory");
    return NULL;
  }
  tls->current = c;
  return tls;
}

int assent_http_tls_reload(assent_http_tls *tls, const char *cert, size_t cert_length,
                           const char *key, size_t key_length, char *error,
                           size_t error_capacity) {
  struct tls_credentials *c =
      tls_credentials_load(cert, cert_length, key, key_length, error, error_capacity);
  if (c == NULL) return -1;
  pthread_mutex_lock(&tls->lock);
  c->older = tls->current;
  tls->current = c;
  pthread_mutex_unlock(&tls->lock);
  return 0;
}

void assent_http_tls_free(assent_http_tls *tls) {
  struct tls_credentials *c = tls->current;
  while (c != NULL) {
    struct tls_credentials *older = c->older;
    tls_credentials_free(c);
    c = older;
  }
  pthread_mutex_destroy(&tls->lock);
  free(tls);
}

// GnuTLS asks for the server's certificate once per handshake. MHD sets the
// session's pointer to the connection, whose socket context is the daemon
// (set when the connection opened, before any handshake).
static int tls_pick_certificate(gnutls_session_t session, const gnutls_datum_t *req_ca_dn,
                                int nreqs, const gnutls_pk_algorithm_t *pk_algos,
                                int pk_algos_length, gnutls_pcert_st **pcert,
                                unsigned int *pcert_length, gnutls_privkey_t *privkey) {
  (void)req_ca_dn;
  (void)nreqs;
  (void)pk_algos;
  (void)pk_algos_length;
  struct MHD_Connection *connection = gnutls_session_get_ptr(session);
  if (connection == NULL) return -1;
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  struct assent_http_daemon *d = info != NULL ? info->socket_context : NULL;
  if (d == NULL || d->tls == NULL) return -1;
  pthread_mutex_lock(&d->tls->lock);
  struct tls_credentials *c = d->tls->current;
  pthread_mutex_unlock(&d->tls->lock);
  *pcert = c->certs;
  *pcert_length = c->count;
  *privkey = c->key;
  return 0;
}

// MARK: - Trampolines (MHD signatures -> plain-int callbacks)

static size_t keep_raw(void *cls, struct MHD_Connection *connection, char *s) {
  (void)cls;
  (void)connection;
  return strlen(s);  // leave URL and query arguments exactly as received
}

static void *request_started(void *cls, const char *uri, struct MHD_Connection *connection) {
  struct assent_http_daemon *d = cls;
  return d->callbacks.request_started(d->callbacks.context, uri, connection);
}

static enum MHD_Result access_handler(void *cls, struct MHD_Connection *connection,
                                      const char *url, const char *method,
                                      const char *version, const char *upload_data,
                                      size_t *upload_data_size, void **request_context) {
  struct assent_http_daemon *d = cls;
  (void)version;
  return d->callbacks.access(d->callbacks.context, connection, url, method, upload_data,
                             upload_data_size, request_context)
             ? MHD_YES
             : MHD_NO;
}

static void request_completed(void *cls, struct MHD_Connection *connection,
                              void **request_context, enum MHD_RequestTerminationCode toe) {
  struct assent_http_daemon *d = cls;
  d->callbacks.request_completed(d->callbacks.context, connection, request_context, (int)toe);
}

// Held by assent_http_upgrade_close around MHD_upgrade_action(CLOSE); see there.
static pthread_mutex_t upgrade_close_lock = PTHREAD_MUTEX_INITIALIZER;

static void connection_changed(void *cls, struct MHD_Connection *connection,
                               void **socket_context, enum MHD_ConnectionNotificationCode toe) {
  struct assent_http_daemon *d = cls;
  (void)connection;
  // The certificate callback finds the daemon (and its credentials) here.
  if (toe == MHD_CONNECTION_NOTIFY_STARTED) *socket_context = d;
  // MHD frees a closed connection right after this notification returns. An upgraded TLS
  // connection may get here while another thread is still inside MHD_upgrade_action(CLOSE)
  // on it: wait until that call has returned (assent_http_upgrade_close).
  if (toe == MHD_CONNECTION_NOTIFY_CLOSED) {
    pthread_mutex_lock(&upgrade_close_lock);
    pthread_mutex_unlock(&upgrade_close_lock);
  }
  d->callbacks.connection_changed(d->callbacks.context,
                                  toe == MHD_CONNECTION_NOTIFY_STARTED ? 1 : 0);
}

static void log_message(void *cls, const char *format, va_list ap) {
  struct assent_http_daemon *d = cls;
  char buffer[512];
  int n = vsnprintf(buffer, sizeof buffer, format, ap);
  if (n < 0) return;
  size_t len = strlen(buffer);
  while (len > 0 && (buffer[len - 1] == '\n' || buffer[len - 1] == '\r')) buffer[--len] = '\0';
  d->callbacks.log_message(d->callbacks.context, buffer);
}

// MARK: - Daemon

int assent_http_listen(const char *host, uint16_t port, int backlog, int *out_fd,
                       uint16_t *out_port, int *out_ipv6) {
  struct addrinfo hints;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  char service[8];
  snprintf(service, sizeof service, "%u", (unsigned)port);
  struct addrinfo *result = NULL;
  if (getaddrinfo(host, service, &hints, &result) != 0 || result == NULL) return -1;

  int error = EADDRNOTAVAIL;
  for (struct addrinfo *ai = result; ai != NULL; ai = ai->ai_next) {
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol);
    if (fd < 0) {
      error = errno;
      continue;
    }
    int on = 1;
    (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (ai->ai_family == AF_INET6) (void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on);
    if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, backlog) != 0) {
      error = errno;
      close(fd);
      continue;
    }
    struct sockaddr_storage bound;
    socklen_t bound_len = sizeof bound;
    if (getsockname(fd, (struct sockaddr *)&bound, &bound_len) != 0) {
      error = errno;
      close(fd);
      continue;
    }
    if (bound.ss_family == AF_INET6) {
      *out_port = ntohs(((struct sockaddr_in6 *)&bound)->sin6_port);
      *out_ipv6 = 1;
    } else {
      *out_port = ntohs(((struct sockaddr_in *)&bound)->sin_port);
      *out_ipv6 = 0;
    }
    *out_fd = fd;
    freeaddrinfo(result);
    return 0;
  }
  freeaddrinfo(result);
  return error;
}

assent_http_daemon *assent_http_start(int listen_fd, const assent_http_options *options,
                                      const assent_http_callbacks *callbacks) {
  // Remember which socket this is: if MHD fails late it has already closed the
  // descriptor, whose number another thread may then reuse.
  struct stat before;
  if (fstat(listen_fd, &before) != 0) return NULL;
  struct assent_http_daemon *d = calloc(1, sizeof *d);
  if (d == NULL) {
    close(listen_fd);
    return NULL;
  }
  d->callbacks = *callbacks;
  d->listen_fd = listen_fd;
  d->tls = options->tls;

  unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL |
                       MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
  if (options->ipv6) flags |= MHD_USE_IPv6;
  if (options->allow_upgrade) flags |= MHD_ALLOW_UPGRADE;
  if (options->tls != NULL) flags |= MHD_USE_TLS;
  // TLS 1.2 and 1.3 only; GnuTLS's NORMAL set of ciphers otherwise.
  static const char priorities[] = "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2";
  gnutls_certificate_retrieve_function2 *pick = &tls_pick_certificate;

  d->mhd = MHD_start_daemon(
      flags, 0, NULL, NULL, &access_handler, d,
      MHD_OPTION_EXTERNAL_LOGGER, &log_message, d,  // first, so start-up errors reach it
      MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
      // A pool only above one thread: for 1 (and for 0) libmicrohttpd logs a warning that the size is ignored, as
      // every start with --metrics-listen or --admin-listen did. Without a pool the option's place repeats the
      // connection limit (same value, same unsigned int argument), since a variadic list cannot leave it out.
      options->thread_pool_size > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_CONNECTION_LIMIT,
      options->thread_pool_size > 1 ? options->thread_pool_size : options->connection_limit,
      MHD_OPTION_CONNECTION_LIMIT, options->connection_limit,
      MHD_OPTION_PER_IP_CONNECTION_LIMIT, options->per_ip_connection_limit,
      MHD_OPTION_CONNECTION_TIMEOUT, options->connection_timeout_seconds,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, options->connection_memory_limit,
      MHD_OPTION_CONNECTION_MEMORY_INCREMENT, options->connection_memory_increment,
      MHD_OPTION_URI_LOG_CALLBACK, &request_started, d,
      MHD_OPTION_UNESCAPE_CALLBACK, &keep_raw, d,
      MHD_OPTION_NOTIFY_COMPLETED, &request_completed, d,
      MHD_OPTION_NOTIFY_CONNECTION, &connection_changed, d,
      // Last, so that without TLS the list simply ends here.
      options->tls != NULL ? MHD_OPTION_HTTPS_CERT_CALLBACK : MHD_OPTION_END, pick,
      MHD_OPTION_HTTPS_PRIORITIES, priorities,
      MHD_OPTION_END);
  if (d->mhd == NULL) {
    struct stat after;
    if (fstat(listen_fd, &after) == 0 && after.st_dev == before.st_dev && after.st_ino == before.st_ino) {
      close(listen_fd);  // MHD failed before taking the socket over
    }
    free(d);
    return NULL;
  }
  return d;
}

int assent_http_quiesce(assent_http_daemon *d) {
  if (d->quiesced) return -1;
  MHD_socket fd = MHD_quiesce_daemon(d->mhd);
  if (fd == MHD_INVALID_SOCKET) return -1;
  d->quiesced = 1;
  d->listen_fd = fd;
  // MHD's threads may still hold the descriptor until MHD_stop_daemon, so it is
  // not closed here; shutting it down makes the kernel refuse (RST) new
  // connections and reset those still waiting in the backlog.
  (void)shutdown(fd, SHUT_RDWR);
  return 0;
}

void assent_http_stop(assent_http_daemon *d) {
  MHD_stop_daemon(d->mhd);
  if (d->quiesced) close(d->listen_fd);  // otherwise MHD_stop_daemon closed it
  free(d);
}

// MARK: - Requests

int assent_http_client_address(struct MHD_Connection *connection, char *buffer, size_t capacity) {
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (info == NULL || info->client_addr == NULL || capacity == 0) return -1;
  const struct sockaddr *sa = info->client_addr;
  const char *written = NULL;
  if (sa->sa_family == AF_INET) {
    written = inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, buffer,
                        (socklen_t)capacity);
  } else if (sa->sa_family == AF_INET6) {
    written = inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, buffer,
                        (socklen_t)capacity);
  }
  return written == NULL ? -1 : 0;
}

const char *assent_http_header(struct MHD_Connection *connection, const char *name) {
  return MHD_lookup_connection_value(connection, MHD_HEADER_KIND, name);
}

struct header_visit {
  assent_http_header_fn visit;
  void *context;
};

static enum MHD_Result visit_header(void *cls, enum MHD_ValueKind kind, const char *key,
                                    size_t key_size, const char *value, size_t value_size) {
  struct header_visit *v = cls;
  (void)kind;
  if (key != NULL) v->visit(v->context, key, key_size, value != NULL ? value : "", value_size);
  return MHD_YES;
}

void assent_http_headers(struct MHD_Connection *connection, assent_http_header_fn visit,
                         void *context) {
  struct header_visit v = {visit, context};
  (void)MHD_get_connection_values_n(connection, MHD_HEADER_KIND, &visit_header, &v);
}

static enum MHD_Result summarize_header(void *cls, enum MHD_ValueKind kind, const char *key,
                                        size_t key_size, const char *value, size_t value_size) {
  struct assent_http_head *head = cls;
  (void)kind;
  (void)value;
  head->bytes += key_size + value_size + 4;
  if (key != NULL) {
    if (key_size == 14 && strncasecmp(key, "Content-Length", 14) == 0) head->content_lengths += 1;
    if (key_size == 17 && strncasecmp(key, "Transfer-Encoding", 17) == 0) head->transfer_encodings += 1;
    if (memchr(key, ' ', key_size) != NULL || memchr(key, '\t', key_size) != NULL) head->spaced_names += 1;
  }
  return MHD_YES;
}

struct assent_http_head assent_http_head_summary(struct MHD_Connection *connection) {
  struct assent_http_head head = {0, 0, 0, 0};
  (void)MHD_get_connection_values_n(connection, MHD_HEADER_KIND, &summarize_header, &head);
  return head;
}

// Adds the `name\0value\0` pairs of `header_block` to `response`; 0, or -1 if one was refused.
static int add_header_block(struct MHD_Response *response, const char *header_block,
                            size_t header_block_length) {
  size_t offset = 0;
  while (header_block != NULL && offset < header_block_length) {
    const char *name = header_block + offset;
    size_t name_length = strnlen(name, header_block_length - offset);
    if (offset + name_length + 1 >= header_block_length) break;  // malformed block: no value
    const char *value = name + name_length + 1;
    size_t value_length = strnlen(value, header_block_length - offset - name_length - 1);
    if (MHD_add_response_header(response, name, value) != MHD_YES) return -1;
    offset += name_length + 1 + value_length + 1;
  }
  return 0;
}

int assent_http_respond(struct MHD_Connection *connection, unsigned int status,
                        const char *header_block, size_t header_block_length, const void *body,
                        size_t body_length) {
  static const char empty[1] = {0};
  struct MHD_Response *response = MHD_create_response_from_buffer(
      body_length, (void *)(body_length > 0 && body != NULL ? body : empty),
      MHD_RESPMEM_MUST_COPY);
  if (response == NULL) return ASSENT_HTTP_RESPOND_NO_MEMORY;
  if (add_header_block(response, header_block, header_block_length) != 0) {
    MHD_destroy_response(response);
    return ASSENT_HTTP_RESPOND_BAD_HEADER;
  }
  enum MHD_Result queued = MHD_queue_response(connection, status, response);
  MHD_destroy_response(response);
  return queued == MHD_YES ? ASSENT_HTTP_RESPOND_OK : ASSENT_HTTP_RESPOND_NOT_QUEUED;
}

void assent_http_suspend(struct MHD_Connection *connection) {
  MHD_suspend_connection(connection);
}

void assent_http_resume(struct MHD_Connection *connection) {
  MHD_resume_connection(connection);
}

// MARK: - Upgrade (WebSocket)

// MHD calls this once the 101 head has been handed to the kernel. The socket is
// duplicated for the caller.
//
// Without TLS, MHD is told at once that the application is done with its
// descriptor (MHD_UPGRADE_ACTION_CLOSE): MHD then closes its copy and frees the
// connection, its memory pool and its slot under MHD_OPTION_CONNECTION_LIMIT,
// while the duplicate keeps the TCP connection open for the caller. Measured on
// 0.9.75 without TLS: that close path calls no shutdown(), so the duplicate
// stays fully usable.
//
// Under TLS the socket is the application's end of a socketpair that MHD's
// threads forward through the TLS session, and MHD_UPGRADE_ACTION_CLOSE starts
// with shutdown() of that socket (which the duplicate shares): the client would
// get EOF right after the 101. So the handle is kept and handed to the caller,
// who closes it with assent_http_upgrade_close once the WebSocket is done.
static void upgraded(void *cls, struct MHD_Connection *connection, void *request_context,
                     const char *extra_in, size_t extra_in_size, MHD_socket sock,
                     struct MHD_UpgradeResponseHandle *urh) {
  const assent_http_upgrade_target *target = cls;
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  const struct assent_http_daemon *d = info != NULL ? info->socket_context : NULL;
  int tls = d != NULL && d->tls != NULL;
  int error = 0;
  int fd = fcntl(sock, F_DUPFD_CLOEXEC, 0);
  if (fd < 0) {
    error = errno;
  } else {
    int flags = fcntl(fd, F_GETFL);
    int on = 1;
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) {
      error = errno;
      close(fd);
      fd = -1;
    } else if (!tls) {
      // MHD turns TCP_NODELAY off before the hand-over; small frames must not wait for Nagle.
      (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    }
  }
  if (tls) {
    // The same for the TCP connection MHD keeps: without it each small TLS record MHD forwards waits for the
    // client's delayed ACK (measured: ~50 ms per WebSocket round trip instead of ~1 ms).
    const union MHD_ConnectionInfo *tcp =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    int on = 1;
    if (tcp != NULL) (void)setsockopt(tcp->connect_fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
  }
  target->upgraded(target->context, request_context, extra_in, extra_in_size, fd, error,
                   tls ? urh : NULL);
  if (!tls) (void)MHD_upgrade_action(urh, MHD_UPGRADE_ACTION_CLOSE);
}

// libmicrohttpd 0.9.75's MHD_upgrade_action(CLOSE) sets the handle's `was_closed` flag and
// only then calls MHD_resume_connection(connection), which writes to the connection. If MHD
// has already finished forwarding (the client closed first: the connection is marked
// `clean_ready` and `resuming`), the flag alone lets a worker thread's next pass move the
// connection to cleanup and free it, so MHD_resume_connection would write into freed memory:
// the heap corruption seen under wss churn. (Later releases set the flag under MHD's own lock.)
// MHD announces MHD_CONNECTION_NOTIFY_CLOSED before freeing the connection, and does so without
// its own locks held; connection_changed waits there on this lock, so the connection outlives
// this call.
void assent_http_upgrade_close(void *handle) {
  pthread_mutex_lock(&upgrade_close_lock);
  (void)MHD_upgrade_action(handle, MHD_UPGRADE_ACTION_CLOSE);
  pthread_mutex_unlock(&upgrade_close_lock);
}

int assent_http_respond_upgrade(struct MHD_Connection *connection, const char *header_block,
                                size_t header_block_length,
                                const assent_http_upgrade_target *target) {
  struct MHD_Response *response = MHD_create_response_for_upgrade(&upgraded, (void *)target);
  if (response == NULL) return ASSENT_HTTP_RESPOND_NO_MEMORY;
  if (add_header_block(response, header_block, header_block_length) != 0) {
    MHD_destroy_response(response);
    return ASSENT_HTTP_RESPOND_BAD_HEADER;
  }
  enum MHD_Result queued = MHD_queue_response(connection, MHD_HTTP_SWITCHING_PROTOCOLS, response);
  MHD_destroy_response(response);
  return queued == MHD_YES ? ASSENT_HTTP_RESPOND_OK : ASSENT_HTTP_RESPOND_NOT_QUEUED;
}

// MARK: - Event loop primitives (WebSocket I/O thread)

_Static_assert(ASSENT_WS_EVENT_IN == EPOLLIN, "event bits must match epoll's");
_Static_assert(ASSENT_WS_EVENT_OUT == EPOLLOUT, "event bits must match epoll's");
_Static_assert(ASSENT_WS_EVENT_ERR == EPOLLERR, "event bits must match epoll's");
_Static_assert(ASSENT_WS_EVENT_HUP == EPOLLHUP, "event bits must match epoll's");
_Static_assert(ASSENT_WS_EVENT_RDHUP == EPOLLRDHUP, "event bits must match epoll's");

int assent_ws_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int assent_ws_epoll_set(int epoll_fd, int op, int fd, uint32_t events, uint64_t token) {
  struct epoll_event event;
  memset(&event, 0, sizeof event);
  event.events = events;
  event.data.u64 = token;
  int c_op = op == ASSENT_WS_ADD ? EPOLL_CTL_ADD : op == ASSENT_WS_MODIFY ? EPOLL_CTL_MOD : EPOLL_CTL_DEL;
  return epoll_ctl(epoll_fd, c_op, fd, c_op == EPOLL_CTL_DEL ? NULL : &event) == 0 ? 0 : errno;
}

int assent_ws_epoll_wait(int epoll_fd, uint64_t *tokens, uint32_t *events, int capacity,
                         int timeout_ms) {
  struct epoll_event ready[256];
  if (capacity > 256) capacity = 256;
  int n = epoll_wait(epoll_fd, ready, capacity, timeout_ms);
  if (n < 0) return errno == EINTR ? 0 : -errno;
  for (int i = 0; i < n; i++) {
    tokens[i] = ready[i].data.u64;
    events[i] = ready[i].events;
  }
  return n;
}

int assent_ws_wake_create(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

void assent_ws_wake(int wake_fd) {
  uint64_t one = 1;
  ssize_t written;
  do {
    written = write(wake_fd, &one, sizeof one);
  } while (written < 0 && errno == EINTR);
  // EAGAIN means the counter is already non-zero: the loop will wake anyway.
}

void assent_ws_wake_drain(int wake_fd) {
  uint64_t value;
  while (read(wake_fd, &value, sizeof value) > 0) {
  }
}
