#ifndef NETPROBE_CCURL_SHIM_H
#define NETPROBE_CCURL_SHIM_H

/*
 * libcurl, loaded on first use, behind typed wrappers.
 *
 * The binary does not link libcurl: a check that sends nothing (no route, `path`,
 * `config check`, --help) must not pay for loading it and its thirty-odd
 * dependencies. netprobe_curl_load() dlopens libcurl.so.4 once and resolves every
 * entry point netprobe uses into one table of function pointers, typed from
 * <curl/curl.h> itself (__typeof__), so a mismatch is a compile error.
 *
 * Swift cannot call C variadic functions, and libcurl reads each option's
 * argument with va_arg using the type the option's documentation names
 * (long, curl_off_t, char *, void *, function pointer). Passing the wrong type
 * is undefined behaviour, so there is exactly one wrapper per argument type
 * and the Swift side picks the one matching the option.
 *
 * Call nothing here before netprobe_curl_load() returned 0.
 */

#include <stddef.h>
#include <curl/curl.h>

/* The oldest libcurl netprobe loads: 7.66.0, the first with curl_multi_poll. Everything else
 * it calls, sets or reads is older, or optional and set only where the version found has it
 * (CurlLibrary.swift lists each option with its first version). */
#define NETPROBE_CURL_OLDEST 0x074200
#define NETPROBE_CURL_OLDEST_TEXT "7.66.0"

struct netprobe_curl_api {
    /* curl_version_info's version of the libcurl loaded: 0xXXYYZZ and its text ("7.74.0"). */
    unsigned int version_num;
    char version[32];
    __typeof__(curl_global_init) *global_init;
    __typeof__(curl_easy_init) *easy_init;
    __typeof__(curl_easy_cleanup) *easy_cleanup;
    __typeof__(curl_easy_setopt) *easy_setopt;
    __typeof__(curl_easy_getinfo) *easy_getinfo;
    __typeof__(curl_easy_strerror) *easy_strerror;
    __typeof__(curl_multi_init) *multi_init;
    __typeof__(curl_multi_cleanup) *multi_cleanup;
    __typeof__(curl_multi_setopt) *multi_setopt;
    __typeof__(curl_multi_add_handle) *multi_add_handle;
    __typeof__(curl_multi_remove_handle) *multi_remove_handle;
    __typeof__(curl_multi_perform) *multi_perform;
    __typeof__(curl_multi_poll) *multi_poll;
    __typeof__(curl_multi_info_read) *multi_info_read;
    __typeof__(curl_multi_strerror) *multi_strerror;
    __typeof__(curl_slist_append) *slist_append;
    __typeof__(curl_slist_free_all) *slist_free_all;
    __typeof__(curl_share_init) *share_init;
    __typeof__(curl_share_setopt) *share_setopt;
    __typeof__(curl_share_cleanup) *share_cleanup;
};

/* Filled by netprobe_curl_load; read-only afterwards. */
extern struct netprobe_curl_api netprobe_curl;

/*
 * Loads libcurl.so.4 and resolves the table. Returns 0 on success; otherwise -1
 * with what went wrong (dlerror's text) in `message`. Not thread-safe: the Swift
 * side calls it exactly once (a global `let`).
 */
int netprobe_curl_load(char *message, size_t size);

/* The version of the libcurl loaded (curl_version_info), as 0xXXYYZZ and as text. */
static inline unsigned int netprobe_curl_version_num(void) { return netprobe_curl.version_num; }
static inline const char *netprobe_curl_version(void) { return netprobe_curl.version; }

/* curl_global_init with the default flags (the macro is not importable everywhere). */
static inline CURLcode netprobe_curl_global_init(void) {
    return netprobe_curl.global_init(CURL_GLOBAL_DEFAULT);
}

/* ---- plain entry points -------------------------------------------------- */

static inline CURL *netprobe_easy_init(void) { return netprobe_curl.easy_init(); }
static inline void netprobe_easy_cleanup(CURL *handle) { netprobe_curl.easy_cleanup(handle); }
static inline const char *netprobe_easy_strerror(CURLcode code) { return netprobe_curl.easy_strerror(code); }
static inline CURLM *netprobe_multi_init(void) { return netprobe_curl.multi_init(); }
static inline CURLMcode netprobe_multi_cleanup(CURLM *multi) { return netprobe_curl.multi_cleanup(multi); }
static inline CURLMcode netprobe_multi_add_handle(CURLM *multi, CURL *handle) {
    return netprobe_curl.multi_add_handle(multi, handle);
}
static inline CURLMcode netprobe_multi_remove_handle(CURLM *multi, CURL *handle) {
    return netprobe_curl.multi_remove_handle(multi, handle);
}
static inline CURLMcode netprobe_multi_perform(CURLM *multi, int *running) {
    return netprobe_curl.multi_perform(multi, running);
}
static inline CURLMcode netprobe_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count,
                                            int timeout_ms, int *ready) {
    return netprobe_curl.multi_poll(multi, extra, count, timeout_ms, ready);
}
static inline CURLMsg *netprobe_multi_info_read(CURLM *multi, int *queued) {
    return netprobe_curl.multi_info_read(multi, queued);
}
static inline const char *netprobe_multi_strerror(CURLMcode code) { return netprobe_curl.multi_strerror(code); }
static inline struct curl_slist *netprobe_slist_append(struct curl_slist *list, const char *line) {
    return netprobe_curl.slist_append(list, line);
}
static inline void netprobe_slist_free_all(struct curl_slist *list) { netprobe_curl.slist_free_all(list); }

/* ---- curl_easy_setopt ---------------------------------------------------- */

/* Options by number. netprobe builds against the oldest libcurl headers it supports (the
 * release build links against Debian 11, libcurl 7.74) as well as newer ones. The options
 * newer than the oldest headers, and the old ones that newer headers mark deprecated (a
 * warning in Swift), are named here by their numbers, which libcurl never changes or reuses
 * (CURLOPTTYPE_* + n, as <curl/curl.h> defines them). Whether the libcurl loaded has an
 * option is decided by its version, never by the headers (CurlLibrary.swift). */
static const CURLoption NETPROBE_CURLOPT_PROTOCOLS = (CURLoption)(CURLOPTTYPE_LONG + 181);
static const CURLoption NETPROBE_CURLOPT_REDIR_PROTOCOLS = (CURLoption)(CURLOPTTYPE_LONG + 182);
static const CURLoption NETPROBE_CURLOPT_PROTOCOLS_STR = (CURLoption)(CURLOPTTYPE_OBJECTPOINT + 318);
static const CURLoption NETPROBE_CURLOPT_REDIR_PROTOCOLS_STR = (CURLoption)(CURLOPTTYPE_OBJECTPOINT + 319);
static const CURLoption NETPROBE_CURLOPT_QUICK_EXIT = (CURLoption)(CURLOPTTYPE_LONG + 322);

static inline CURLcode netprobe_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return netprobe_curl.easy_setopt(handle, option, value);
}

static inline CURLcode netprobe_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return netprobe_curl.easy_setopt(handle, option, value);
}

/* libcurl copies every string option (since 7.17), so the pointer may be temporary. */
static inline CURLcode netprobe_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return netprobe_curl.easy_setopt(handle, option, value);
}

/* Object options (CURLOPT_*DATA, CURLOPT_PRIVATE, CURLOPT_ERRORBUFFER): must outlive the handle's use. */
static inline CURLcode netprobe_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return netprobe_curl.easy_setopt(handle, option, value);
}

/* CURLOPT_HTTPHEADER and friends: the list must outlive the handle's use. */
static inline CURLcode netprobe_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return netprobe_curl.easy_setopt(handle, option, value);
}

/* CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION share this signature. */
static inline CURLcode netprobe_easy_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback value) {
    return netprobe_curl.easy_setopt(handle, option, value);
}

/* ---- curl_easy_getinfo --------------------------------------------------- */

static inline CURLcode netprobe_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return netprobe_curl.easy_getinfo(handle, info, value);
}

static inline CURLcode netprobe_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return netprobe_curl.easy_getinfo(handle, info, value);
}

/* The returned string is owned by the handle: copy it before curl_easy_cleanup. */
static inline CURLcode netprobe_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return netprobe_curl.easy_getinfo(handle, info, value);
}

static inline CURLcode netprobe_easy_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    return netprobe_curl.easy_getinfo(handle, info, value);
}

/* ---- curl_multi_setopt --------------------------------------------------- */

static inline CURLMcode netprobe_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return netprobe_curl.multi_setopt(handle, option, value);
}

/* ---- CURLMsg ------------------------------------------------------------- */

/* CURLMsg.data is a union; read the CURLcode member of a CURLMSG_DONE message in C. */
static inline CURLcode netprobe_msg_result(const CURLMsg *message) {
    return message->data.result;
}

/* ---- TLS contexts: a quiet close, one certificate store per round (tls_contexts.c) ---- */

/* Looks up the few OpenSSL functions these need, through libcurl's handle (loader.c). */
void netprobe_trust_share_resolve(void *library);
/* 1 when libcurl's TLS library is an OpenSSL that can share a store between contexts. */
int netprobe_trust_share_available(void);
/* 1 when libcurl's TLS library is an OpenSSL whose contexts can close without close_notify. */
int netprobe_tls_quiet_available(void);
struct netprobe_trust_share;
/* NULL when out of memory. Free it after the round's transfers are cleaned up or not:
 * the store is reference-counted, so either order is safe. */
struct netprobe_trust_share *netprobe_trust_share_new(void);
void netprobe_trust_share_free(struct netprobe_trust_share *share);
/* How many handshakes were given the first one's store. */
unsigned netprobe_trust_share_reuses(const struct netprobe_trust_share *share);
/* Sets CURLOPT_SSL_CTX_FUNCTION/DATA for every TLS context of the transfer: it closes quietly
 * (no close_notify) and, when `share` is not NULL, uses `share`'s certificate store; NULL asks
 * for the quiet close alone. CURLE_NOT_BUILT_IN when what is asked is unavailable; the
 * transfer then keeps its own store (and, without a share, libcurl's usual close). */
CURLcode netprobe_easy_tls_contexts(CURL *handle, struct netprobe_trust_share *share);

/* ---- TLS sessions resumed from check to check (tls_contexts.c) --------------- */

/* A share handle that holds TLS sessions only (CURL_LOCK_DATA_SSL_SESSION), never
 * connections, DNS answers or cookies; its locks make it safe with transfers ended on a
 * thread of their own. NULL when out of memory or unsupported. */
CURLSH *netprobe_session_share_new(void);
/* CURLSHE_IN_USE while a transfer still uses it: then it is left alone (kept until exit). */
CURLSHcode netprobe_session_share_free(CURLSH *share);
/* CURLOPT_SHARE: the transfer resumes and stores its TLS sessions there. */
CURLcode netprobe_easy_share_sessions(CURL *handle, CURLSH *share);

/* ---- What a runner's sockets did: TCP payload and routers' errors (socket_ledger.c) ---- */

/* Bytes acknowledged by the peer and received, over every connection closed while counted. */
struct netprobe_socket_ledger;
/* NULL when out of memory. Free it only when no connection counted into it can still close. */
struct netprobe_socket_ledger *netprobe_socket_ledger_new(void);
void netprobe_socket_ledger_free(struct netprobe_socket_ledger *ledger);
unsigned long long netprobe_socket_ledger_sent(const struct netprobe_socket_ledger *ledger);
unsigned long long netprobe_socket_ledger_received(const struct netprobe_socket_ledger *ledger);
/* Adds one TCP socket's counters (TCP_INFO) and keeps its routers' errors; anything else adds nothing. */
void netprobe_socket_ledger_socket(struct netprobe_socket_ledger *ledger, int socket);
/* An ICMP error a router sent about a connection's packets (IP_RECVERR): who sent it and what. */
struct netprobe_router_error {
    int family;                /* AF_INET or AF_INET6: the router's */
    unsigned char type, code;  /* ICMP or ICMPv6 */
    char router[46];           /* INET6_ADDRSTRLEN: its address, as text */
    char interface[16];        /* IFNAMSIZ: the device the socket was bound to; "" when unbound */
};
/* A socket of the tally's begins to connect: IP_RECVERR (IPV6_RECVERR) on until it settles. */
void netprobe_socket_ledger_connecting(struct netprobe_socket_ledger *ledger, int socket);
/* After each round of libcurl's work: sockets past their handshake have IP_RECVERR turned off,
 * so that a transient ICMP unreachable does not end an established connection. */
void netprobe_socket_ledger_settle(struct netprobe_socket_ledger *ledger);
/* Moves up to `capacity` of the errors kept since the last call into `out`; returns how many. */
size_t netprobe_socket_ledger_take_router_errors(struct netprobe_socket_ledger *ledger, struct netprobe_router_error *out,
                                              size_t capacity);
/* Sets CURLOPT_CLOSESOCKETFUNCTION/DATA: each of the transfer's sockets is counted as it closes;
 * and CURLOPT_SOCKOPTDATA, so that probe_socket.c registers its sockets while they connect. */
CURLcode netprobe_easy_keep_ledger(CURL *handle, struct netprobe_socket_ledger *ledger);

/* ---- Fewer packets per connection (probe_socket.c) ------------------------------ */

/* Sets CURLOPT_SOCKOPTFUNCTION: the handshake's last ACK rides with the first data, and close()
 * sends one RST instead of the FIN exchange. */
CURLcode netprobe_easy_probe_socket_options(CURL *handle);

/* ---- Ending transfers on a thread of their own (end_later.c) --------------- */

/* A multi handle and the easy handles still in it (with their header and CURLOPT_RESOLVE
 * lists), to be ended together, off the caller's thread: for a libcurl without
 * CURLOPT_QUICK_EXIT, whose cleanup waits for a name lookup still running. NULL when out of
 * memory (then end them yourself). At most `capacity` transfers are added. */
struct netprobe_ending;
struct netprobe_ending *netprobe_ending_new(CURLM *multi, size_t capacity);
void netprobe_ending_add(struct netprobe_ending *ending, CURL *handle, struct curl_slist *headers,
                         struct curl_slist *resolve);
/* Removes, cleans up and frees them all, then the multi handle and `ending` itself, on a new
 * detached thread (here, waiting, if no thread can be had). The caller must not touch any of
 * them again. */
void netprobe_ending_start(struct netprobe_ending *ending);

#endif /* NETPROBE_CCURL_SHIM_H */
