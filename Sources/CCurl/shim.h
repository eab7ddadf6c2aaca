#ifndef SPLASHBOARD_CCURL_SHIM_H
#define SPLASHBOARD_CCURL_SHIM_H

#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one
// function for each kind of value.

static inline CURLcode splash_curl_set_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode splash_curl_set_off(CURL *curl, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode splash_curl_set_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode splash_curl_set_pointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode splash_curl_set_list(CURL *curl, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode splash_curl_set_write(CURL *curl, curl_write_callback callback) {
    return curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode splash_curl_set_header(CURL *curl, curl_write_callback callback) {
    return curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, callback);
}

static inline CURLcode splash_curl_set_progress(CURL *curl, curl_xferinfo_callback callback) {
    return curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode splash_curl_set_opensocket(CURL *curl, curl_opensocket_callback callback) {
    return curl_easy_setopt(curl, CURLOPT_OPENSOCKETFUNCTION, callback);
}

static inline CURLcode splash_curl_get_long(CURL *curl, CURLINFO info, long *value) {
    return curl_easy_getinfo(curl, info, value);
}

static inline CURLcode splash_curl_get_off(CURL *curl, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(curl, info, value);
}

static inline CURLcode splash_curl_get_string(CURL *curl, CURLINFO info, char **value) {
    return curl_easy_getinfo(curl, info, value);
}

// libcurl's URL parser, as the requests use it (CURLOPT_CURLU): the part asked for as
// text (freed with curl_free), or NULL where the URL has none. `default_port` fills in
// the scheme's port where the URL names none.
static inline char *splash_curl_url_part(CURLU *url, CURLUPart part, int default_port) {
    char *out = NULL;
    if (curl_url_get(url, part, &out, default_port ? CURLU_DEFAULT_PORT : 0) != CURLUE_OK) return NULL;
    return out;
}

#endif
