#ifndef NETPROBE_CCURL_SHIM_H
#define NETPROBE_CCURL_SHIM_H

/*
 * Typed wrappers around libcurl's variadic entry points.
 *
 * Swift cannot call C variadic functions, and libcurl reads each option's
 * argument with va_arg using the type the option's documentation names
 * (long, curl_off_t, char *, void *, function pointer). Passing the wrong type
 * is undefined behaviour, so there is exactly one wrapper per argument type
 * and the Swift side picks the one matching the option.
 */

#include <curl/curl.h>

/* curl_global_init with the default flags (the macro is not importable everywhere). */
static inline CURLcode netprobe_curl_global_init(void) {
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}

/* ---- curl_easy_setopt ---------------------------------------------------- */

static inline CURLcode netprobe_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode netprobe_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/* libcurl copies every string option (since 7.17), so the pointer may be temporary. */
static inline CURLcode netprobe_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

/* Object options (CURLOPT_*DATA, CURLOPT_PRIVATE, CURLOPT_ERRORBUFFER): must outlive the handle's use. */
static inline CURLcode netprobe_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/* CURLOPT_HTTPHEADER and friends: the list must outlive the handle's use. */
static inline CURLcode netprobe_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

/* CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION share this signature. */
static inline CURLcode netprobe_easy_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}

/* ---- curl_easy_getinfo --------------------------------------------------- */

static inline CURLcode netprobe_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode netprobe_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

/* The returned string is owned by the handle: copy it before curl_easy_cleanup. */
static inline CURLcode netprobe_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode netprobe_easy_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    return curl_easy_getinfo(handle, info, value);
}

/* ---- curl_multi_setopt --------------------------------------------------- */

static inline CURLMcode netprobe_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return curl_multi_setopt(handle, option, value);
}

/* ---- CURLMsg ------------------------------------------------------------- */

/* CURLMsg.data is a union; read the CURLcode member of a CURLMSG_DONE message in C. */
static inline CURLcode netprobe_msg_result(const CURLMsg *message) {
    return message->data.result;
}

#endif /* NETPROBE_CCURL_SHIM_H */
