#include "shim.h"

#include <dlfcn.h>
#include <stdio.h>

struct netprobe_curl_api netprobe_curl;

/* The soname libcurl4 (and libcurl4t64) install; the -dev package's libcurl.so may be absent at run time. */
static const char soname[] = "libcurl.so.4";

int netprobe_curl_load(char *message, size_t size) {
    /* RTLD_LOCAL: libcurl's symbols serve this table only. RTLD_LAZY, not RTLD_NOW: NOW would
     * bind every import of libcurl and its thirty-odd dependencies (GnuTLS, Kerberos, LDAP ...)
     * at load, where a check calls a few hundred of them. A libcurl too old for one of our
     * entry points still fails here, whole: its version is checked and each entry point is
     * looked up below. */
    void *library = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(message, size, "cannot load %s: %s; install libcurl4", soname, why ? why : "unknown error");
        return -1;
    }
    struct netprobe_curl_api api;
    /* The version first (every libcurl has curl_version_info), so that whatever is missing
     * below is reported against the version that was found. */
    __typeof__(curl_version_info) *version_info = (__typeof__(curl_version_info) *)dlsym(library, "curl_version_info");
    const curl_version_info_data *info = version_info ? version_info(CURLVERSION_NOW) : NULL;
    if (info == NULL || info->version == NULL) {
        snprintf(message, size, "cannot use %s: it has no curl_version_info; netprobe needs libcurl %s or newer",
                 soname, NETPROBE_CURL_OLDEST_TEXT);
        dlclose(library);
        return -1;
    }
    api.version_num = info->version_num;
    snprintf(api.version, sizeof api.version, "%s", info->version);
    if (info->version_num < NETPROBE_CURL_OLDEST) {
        snprintf(message, size, "cannot use %s: it is libcurl %s; netprobe needs libcurl %s or newer",
                 soname, api.version, NETPROBE_CURL_OLDEST_TEXT);
        dlclose(library);
        return -1;
    }
    /* Each name is resolved once; dlsym returns void *, the table's type says what it really is. */
#define NETPROBE_RESOLVE(field, symbol)                                                             \
    do {                                                                                            \
        void *address = dlsym(library, #symbol);                                                    \
        if (address == NULL) {                                                                      \
            snprintf(message, size, "cannot use %s: libcurl %s has no %s; netprobe needs libcurl %s or newer", \
                     soname, api.version, #symbol, NETPROBE_CURL_OLDEST_TEXT);                      \
            dlclose(library);                                                                       \
            return -1;                                                                              \
        }                                                                                           \
        api.field = (__typeof__(api.field))address;                                                 \
    } while (0)
    NETPROBE_RESOLVE(global_init, curl_global_init);
    NETPROBE_RESOLVE(easy_init, curl_easy_init);
    NETPROBE_RESOLVE(easy_cleanup, curl_easy_cleanup);
    NETPROBE_RESOLVE(easy_setopt, curl_easy_setopt);
    NETPROBE_RESOLVE(easy_getinfo, curl_easy_getinfo);
    NETPROBE_RESOLVE(easy_strerror, curl_easy_strerror);
    NETPROBE_RESOLVE(multi_init, curl_multi_init);
    NETPROBE_RESOLVE(multi_cleanup, curl_multi_cleanup);
    NETPROBE_RESOLVE(multi_setopt, curl_multi_setopt);
    NETPROBE_RESOLVE(multi_add_handle, curl_multi_add_handle);
    NETPROBE_RESOLVE(multi_remove_handle, curl_multi_remove_handle);
    NETPROBE_RESOLVE(multi_perform, curl_multi_perform);
    NETPROBE_RESOLVE(multi_poll, curl_multi_poll);
    NETPROBE_RESOLVE(multi_info_read, curl_multi_info_read);
    NETPROBE_RESOLVE(multi_strerror, curl_multi_strerror);
    NETPROBE_RESOLVE(slist_append, curl_slist_append);
    NETPROBE_RESOLVE(slist_free_all, curl_slist_free_all);
    NETPROBE_RESOLVE(share_init, curl_share_init);
    NETPROBE_RESOLVE(share_setopt, curl_share_setopt);
    NETPROBE_RESOLVE(share_cleanup, curl_share_cleanup);
#undef NETPROBE_RESOLVE
    netprobe_trust_share_resolve(library);
    /* Never dlclosed: transfers and libcurl's own threads may use it until exit. */
    netprobe_curl = api;
    return 0;
}
