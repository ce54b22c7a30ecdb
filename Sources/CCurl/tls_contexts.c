#include "shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

/*
 * Every TLS context a probe's transfer makes, set up in one callback (prepare_context): it
 * closes quietly, it may share a certificate store, and (further down) the sessions it makes
 * are kept from check to check.
 *
 * One OpenSSL certificate store for every HTTPS handshake of a round that trusts the same
 * hashed directory (CAPATH). libcurl 7.88 makes a new SSL_CTX, and so a new store, for every
 * connection; a directory store reads and decodes the issuer's certificate on first use, so
 * each handshake loaded the same CA again (`--all-paths`: four times; bench/README.md).
 * Shared, the first handshake's lookup is cached in the store for the rest of the round.
 * Trust is unchanged: the store is the one libcurl built for the same CAPATH and flags.
 *
 * The same context callback makes every TLS connection close quietly (prepare_context).
 *
 * OpenSSL is reached through libcurl's own dependency (dlsym on its handle searches the
 * libraries it loaded), never linked: with another TLS library, or an OpenSSL without
 * SSL_CTX_set1_cert_store (before 3.0), sharing is simply off.
 */

typedef void *(*get_store_fn)(const void *ctx);
typedef void (*set1_store_fn)(void *ctx, void *store);
typedef int (*store_up_ref_fn)(void *store);
typedef void (*store_free_fn)(void *store);
typedef void (*quiet_shutdown_fn)(void *ctx, int mode);

static struct {
    get_store_fn get_store;
    set1_store_fn set1_store;
    store_up_ref_fn up_ref;
    store_free_fn free_store;
    quiet_shutdown_fn quiet_shutdown;
} openssl;

void netprobe_trust_share_resolve(void *library) {
    get_store_fn get_store = (get_store_fn)dlsym(library, "SSL_CTX_get_cert_store");
    set1_store_fn set1_store = (set1_store_fn)dlsym(library, "SSL_CTX_set1_cert_store");
    store_up_ref_fn up_ref = (store_up_ref_fn)dlsym(library, "X509_STORE_up_ref");
    store_free_fn free_store = (store_free_fn)dlsym(library, "X509_STORE_free");
    openssl.quiet_shutdown = (quiet_shutdown_fn)dlsym(library, "SSL_CTX_set_quiet_shutdown");
    if (get_store && set1_store && up_ref && free_store) {
        openssl.get_store = get_store;
        openssl.set1_store = set1_store;
        openssl.up_ref = up_ref;
        openssl.free_store = free_store;
    }
}

int netprobe_trust_share_available(void) { return openssl.set1_store != NULL; }

int netprobe_tls_quiet_available(void) { return openssl.quiet_shutdown != NULL; }

struct netprobe_trust_share {
    void *store;       /* the first handshake's store, one reference held here */
    unsigned reuses;   /* handshakes that were given it */
};

struct netprobe_trust_share *netprobe_trust_share_new(void) {
    return calloc(1, sizeof(struct netprobe_trust_share));
}

void netprobe_trust_share_free(struct netprobe_trust_share *share) {
    if (share == NULL) return;
    if (share->store != NULL) openssl.free_store(share->store);
    free(share);
}

unsigned netprobe_trust_share_reuses(const struct netprobe_trust_share *share) { return share->reuses; }

/* CURLOPT_SSL_CTX_FUNCTION: libcurl calls it with each connection's SSL_CTX, its verify
 * locations already set.
 *
 * Quiet shutdown: closing, libcurl's SSL_shutdown sends no close_notify. A probe closes after
 * its answer is whole, and the server has almost always sent its own close_notify and FIN
 * with it (`Connection: close`): ours would only draw the server's RST, two packets that
 * prove nothing. Nothing we send can be truncated by leaving it out; the session stays
 * resumable (OpenSSL counts a quiet shutdown as a proper one).
 *
 * With a share, the first context's store is kept; later ones take it instead of their own
 * (SSL_CTX_set1_cert_store counts the reference; their own store is released). */
static CURLcode prepare_context(CURL *curl, void *ssl_ctx, void *userptr) {
    (void)curl;
    struct netprobe_trust_share *share = userptr;
    if (ssl_ctx == NULL) return CURLE_OK;
    if (openssl.quiet_shutdown != NULL) openssl.quiet_shutdown(ssl_ctx, 1);
    if (share == NULL || openssl.set1_store == NULL) return CURLE_OK;
    if (share->store == NULL) {
        void *store = openssl.get_store(ssl_ctx);
        if (store != NULL && openssl.up_ref(store) == 1) share->store = store;
    } else {
        openssl.set1_store(ssl_ctx, share->store);
        share->reuses += 1;
    }
    return CURLE_OK;
}

CURLcode netprobe_easy_tls_contexts(CURL *handle, struct netprobe_trust_share *share) {
    if (share != NULL && !netprobe_trust_share_available()) return CURLE_NOT_BUILT_IN;
    if (share == NULL && !netprobe_tls_quiet_available()) return CURLE_NOT_BUILT_IN;
    CURLcode code = netprobe_curl.easy_setopt(handle, CURLOPT_SSL_CTX_FUNCTION, prepare_context);
    if (code != CURLE_OK) return code;
    return netprobe_curl.easy_setopt(handle, CURLOPT_SSL_CTX_DATA, (void *)share);
}

/*
 * TLS sessions kept from one check to the next (watch), so a re-check resumes its HTTPS
 * handshakes instead of receiving the certificate chain again: the largest part of what a
 * check sends over the wire. Only sessions are shared, never connections (each probe still
 * opens its own, FRESH_CONNECT and FORBID_REUSE: a portal that appears meets a new one), and
 * a resumed session is still the server's own: it was made by a handshake whose certificate
 * was verified, and libcurl resumes it only for the same host, port and TLS settings.
 *
 * One lock for every kind of data: a transfer ended on a thread of its own (end_later.c)
 * detaches from the share while the runner's thread may use it.
 */
static pthread_mutex_t session_lock = PTHREAD_MUTEX_INITIALIZER;

static void lock_sessions(CURL *handle, curl_lock_data data, curl_lock_access access, void *userptr) {
    (void)handle; (void)data; (void)access; (void)userptr;
    pthread_mutex_lock(&session_lock);
}

static void unlock_sessions(CURL *handle, curl_lock_data data, void *userptr) {
    (void)handle; (void)data; (void)userptr;
    pthread_mutex_unlock(&session_lock);
}

CURLSH *netprobe_session_share_new(void) {
    CURLSH *share = netprobe_curl.share_init();
    if (share == NULL) return NULL;
    if (netprobe_curl.share_setopt(share, CURLSHOPT_LOCKFUNC, lock_sessions) != CURLSHE_OK ||
        netprobe_curl.share_setopt(share, CURLSHOPT_UNLOCKFUNC, unlock_sessions) != CURLSHE_OK ||
        netprobe_curl.share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION) != CURLSHE_OK) {
        netprobe_curl.share_cleanup(share);
        return NULL;
    }
    return share;
}

CURLSHcode netprobe_session_share_free(CURLSH *share) {
    return share == NULL ? CURLSHE_OK : netprobe_curl.share_cleanup(share);
}

CURLcode netprobe_easy_share_sessions(CURL *handle, CURLSH *share) {
    return netprobe_curl.easy_setopt(handle, CURLOPT_SHARE, share);
}
