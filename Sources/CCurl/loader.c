#include "shim.h"

#include <dlfcn.h>
#include <stdio.h>

struct netprobe_curl_api netprobe_curl;

/* The soname libcurl4 (and libcurl4t64) install; the -dev package's libcurl.so may be absent at run time. */
static const char soname[] = "libcurl.so.4";

int netprobe_curl_load(char *message, size_t size) {
    /* RTLD_LOCAL: libcurl's symbols serve this table only. RTLD_LAZY, not RTLD_NOW: NOW would
     * bind every import of libcurl and its thirty-odd dependencies (GnuTLS, Kerberos, LDAP ...)
     * at load, ~17 million instructions, where a check calls a few hundred of them. A libcurl
     * too old for one of our entry points still fails here, whole: each is looked up below. */
    void *library = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(message, size, "cannot load %s: %s; install libcurl4", soname, why ? why : "unknown error");
        return -1;
    }
    struct netprobe_curl_api api;
    /* Each name is resolved once; dlsym returns void *, the table's type says what it really is. */
#define NETPROBE_RESOLVE(field, symbol)                                                             \
    do {                                                                                            \
        void *address = dlsym(library, #symbol);                                                    \
        if (address == NULL) {                                                                      \
            snprintf(message, size, "cannot load %s: it has no %s (libcurl 7.66 or newer needed)",  \
                     soname, #symbol);                                                              \
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
#undef NETPROBE_RESOLVE
    netprobe_trust_share_resolve(library);
    /* Never dlclosed: transfers and libcurl's own threads may use it until exit. */
    netprobe_curl = api;
    return 0;
}
