#include "curl_shims.h"

#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>

int assent_curl_easy_setopt_long(CURL *easy, int option, long value) {
    return (int)curl_easy_setopt(easy, (CURLoption)option, value);
}

int assent_curl_easy_setopt_string(CURL *easy, int option, const char *value) {
    return (int)curl_easy_setopt(easy, (CURLoption)option, value);
}

int assent_curl_easy_setopt_pointer(CURL *easy, int option, void *value) {
    return (int)curl_easy_setopt(easy, (CURLoption)option, value);
}

int assent_curl_easy_set_write_function(CURL *easy, size_t (*function)(char *, size_t, size_t, void *)) {
    return (int)curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, function);
}

int assent_curl_easy_set_header_function(CURL *easy, size_t (*function)(char *, size_t, size_t, void *)) {
    return (int)curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, function);
}

int assent_curl_easy_set_body(CURL *easy, const char *body, size_t length) {
    CURLcode code = curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)length);
    if (code != CURLE_OK) return (int)code;
    return (int)curl_easy_setopt(easy, CURLOPT_COPYPOSTFIELDS, body);
}

int assent_curl_easy_getinfo_long(CURL *easy, int info, long *value) {
    return (int)curl_easy_getinfo(easy, (CURLINFO)info, value);
}

int assent_curl_multi_setopt_long(CURLM *multi, int option, long value) {
    return (int)curl_multi_setopt(multi, (CURLMoption)option, value);
}

int assent_curl_multi_next_done(CURLM *multi, CURL **easy, int *result) {
    int queued = 0;
    CURLMsg *message;
    while ((message = curl_multi_info_read(multi, &queued)) != NULL) {
        if (message->msg == CURLMSG_DONE) {
            *easy = message->easy_handle;
            *result = (int)message->data.result;
            return 1;
        }
    }
    return 0;
}

int assent_curl_easy_set_opensocket_function(
    CURL *easy, curl_socket_t (*function)(void *, curlsocktype, struct curl_sockaddr *), void *context) {
    CURLcode code = curl_easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, function);
    if (code != CURLE_OK) return (int)code;
    return (int)curl_easy_setopt(easy, CURLOPT_OPENSOCKETDATA, context);
}

int assent_curl_sockaddr_ip(const struct curl_sockaddr *address, unsigned char bytes[16]) {
    if (address->family == AF_INET && address->addrlen >= sizeof(struct sockaddr_in)) {
        memcpy(bytes, &((const struct sockaddr_in *)&address->addr)->sin_addr, 4);
        return 4;
    }
    if (address->family == AF_INET6 && address->addrlen >= sizeof(struct sockaddr_in6)) {
        memcpy(bytes, &((const struct sockaddr_in6 *)&address->addr)->sin6_addr, 16);
        return 16;
    }
    return 0;
}

curl_socket_t assent_curl_open_socket(const struct curl_sockaddr *address) {
    return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}
