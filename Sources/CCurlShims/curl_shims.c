#include "curl_shims.h"

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
