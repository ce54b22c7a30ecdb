#define _GNU_SOURCE /* secure_getenv */
#include "systemd_shim.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* As <systemd/sd-bus.h> declares them. */
typedef struct {
    const char *name;
    const char *message;
    int _need_free;
} sd_bus_error;

struct netprobe_systemd_api {
    int (*bus_new)(netprobe_bus **bus);
    int (*bus_set_address)(netprobe_bus *bus, const char *address);
    int (*bus_set_bus_client)(netprobe_bus *bus, int b);
    int (*bus_start)(netprobe_bus *bus);
    int (*bus_get_fd)(netprobe_bus *bus);
    int (*bus_get_events)(netprobe_bus *bus);
    int (*bus_get_timeout)(netprobe_bus *bus, uint64_t *usec);
    int (*bus_process)(netprobe_bus *bus, netprobe_bus_message **r);
    int (*bus_is_ready)(netprobe_bus *bus);
    int (*bus_is_open)(netprobe_bus *bus);
    void (*bus_close)(netprobe_bus *bus);
    netprobe_bus *(*bus_unref)(netprobe_bus *bus);
    int (*message_new_method_call)(netprobe_bus *bus, netprobe_bus_message **m, const char *destination,
                                   const char *path, const char *interface, const char *member);
    int (*message_set_auto_start)(netprobe_bus_message *m, int b);
    int (*message_append_basic)(netprobe_bus_message *m, char type, const void *p);
    int (*call)(netprobe_bus *bus, netprobe_bus_message *m, uint64_t usec, sd_bus_error *ret_error,
                netprobe_bus_message **reply);
    netprobe_bus_message *(*message_unref)(netprobe_bus_message *m);
    int (*message_peek_type)(netprobe_bus_message *m, char *type, const char **contents);
    int (*message_enter_container)(netprobe_bus_message *m, char type, const char *contents);
    int (*message_exit_container)(netprobe_bus_message *m);
    int (*message_skip)(netprobe_bus_message *m, const char *types);
    int (*message_read_basic)(netprobe_bus_message *m, char type, void *p);
    int (*message_read_array)(netprobe_bus_message *m, char type, const void **ptr, size_t *size);
    void (*error_free)(sd_bus_error *e);
};

static struct netprobe_systemd_api api;

/* The soname libsystemd0 installs; the -dev package's libsystemd.so is not needed at run time. */
static const char soname[] = "libsystemd.so.0";

int netprobe_systemd_load(char *message, size_t size) {
    /* RTLD_LOCAL: its symbols serve this table only. */
    void *library = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(message, size, "cannot load %s: %s", soname, why ? why : "unknown error");
        return -1;
    }
    struct netprobe_systemd_api table;
#define NETPROBE_RESOLVE(field, symbol)                                                   \
    do {                                                                                  \
        void *address = dlsym(library, #symbol);                                          \
        if (address == NULL) {                                                            \
            snprintf(message, size, "cannot use %s: it has no %s", soname, #symbol);      \
            dlclose(library);                                                             \
            return -1;                                                                    \
        }                                                                                 \
        table.field = (__typeof__(table.field))address;                                   \
    } while (0)
    NETPROBE_RESOLVE(bus_new, sd_bus_new);
    NETPROBE_RESOLVE(bus_set_address, sd_bus_set_address);
    NETPROBE_RESOLVE(bus_set_bus_client, sd_bus_set_bus_client);
    NETPROBE_RESOLVE(bus_start, sd_bus_start);
    NETPROBE_RESOLVE(bus_get_fd, sd_bus_get_fd);
    NETPROBE_RESOLVE(bus_get_events, sd_bus_get_events);
    NETPROBE_RESOLVE(bus_get_timeout, sd_bus_get_timeout);
    NETPROBE_RESOLVE(bus_process, sd_bus_process);
    NETPROBE_RESOLVE(bus_is_ready, sd_bus_is_ready);
    NETPROBE_RESOLVE(bus_is_open, sd_bus_is_open);
    NETPROBE_RESOLVE(bus_close, sd_bus_close);
    NETPROBE_RESOLVE(bus_unref, sd_bus_unref);
    NETPROBE_RESOLVE(message_new_method_call, sd_bus_message_new_method_call);
    NETPROBE_RESOLVE(message_set_auto_start, sd_bus_message_set_auto_start);
    NETPROBE_RESOLVE(message_append_basic, sd_bus_message_append_basic);
    NETPROBE_RESOLVE(call, sd_bus_call);
    NETPROBE_RESOLVE(message_unref, sd_bus_message_unref);
    NETPROBE_RESOLVE(message_peek_type, sd_bus_message_peek_type);
    NETPROBE_RESOLVE(message_enter_container, sd_bus_message_enter_container);
    NETPROBE_RESOLVE(message_exit_container, sd_bus_message_exit_container);
    NETPROBE_RESOLVE(message_skip, sd_bus_message_skip);
    NETPROBE_RESOLVE(message_read_basic, sd_bus_message_read_basic);
    NETPROBE_RESOLVE(message_read_array, sd_bus_message_read_array);
    NETPROBE_RESOLVE(error_free, sd_bus_error_free);
#undef NETPROBE_RESOLVE
    /* Never dlclosed: loaded once, for the life of the process. */
    api = table;
    return 0;
}

static uint64_t monotonic_usec(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
}

/* sd_bus_open_system would do the same set-up, but its first call then waits for the
 * authentication and the Hello reply under sd-bus's own limits (90 s, then 25 s): a broker
 * that accepts and never answers would hold the check that long. So the connection is started
 * here and driven to the Hello reply by our own loop, never past `timeout_usec`. */
int netprobe_bus_connect_system(const char *address, uint64_t timeout_usec, netprobe_bus **out) {
    *out = NULL;
    if (address == NULL || address[0] == 0) {
        /* What sd_bus_open_system reads; secure_getenv as it does (no setuid redirection). */
        address = secure_getenv("DBUS_SYSTEM_BUS_ADDRESS");
        if (address == NULL || address[0] == 0) address = "unix:path=/run/dbus/system_bus_socket";
    }
    netprobe_bus *bus = NULL;
    int r = api.bus_new(&bus);
    if (r < 0) return r;
    r = api.bus_set_address(bus, address);
    if (r >= 0) r = api.bus_set_bus_client(bus, 1);
    if (r >= 0) r = api.bus_start(bus);
    const uint64_t until = monotonic_usec() + timeout_usec;
    while (r >= 0 && api.bus_is_ready(bus) <= 0) {
        r = api.bus_process(bus, NULL);
        if (r < 0) break;
        if (r > 0) continue; /* did something: there may be more to do before waiting */
        if (api.bus_is_open(bus) <= 0) {
            r = -ECONNRESET;
            break;
        }
        const uint64_t now = monotonic_usec();
        if (now >= until) {
            r = -ETIMEDOUT;
            break;
        }
        uint64_t wait_usec = until - now;
        uint64_t wake = 0;
        /* sd-bus's own next deadline (absolute, CLOCK_MONOTONIC), when it has one sooner. */
        if (api.bus_get_timeout(bus, &wake) > 0 && wake != UINT64_MAX)
            wait_usec = wake <= now ? 0 : (wake - now < wait_usec ? wake - now : wait_usec);
        int events = api.bus_get_events(bus);
        int fd = api.bus_get_fd(bus);
        if (events < 0 || fd < 0) {
            r = events < 0 ? events : fd;
            break;
        }
        struct pollfd watch = {.fd = fd, .events = (short)events, .revents = 0};
        /* Rounded up: a wait of 0 ms before the limit would spin. */
        int polled = poll(&watch, 1, (int)((wait_usec + 999) / 1000));
        if (polled < 0 && errno != EINTR) {
            r = -errno;
            break;
        }
    }
    if (r < 0) {
        netprobe_bus_close(bus);
        return r;
    }
    *out = bus;
    return 0;
}

int netprobe_bus_is_open(netprobe_bus *bus) { return api.bus_is_open(bus) > 0; }

/* Closed without sd_bus_flush: it waits for a connection still authenticating under
 * sd-bus's 90 s, and nothing sent here is left unanswered to flush. */
void netprobe_bus_close(netprobe_bus *bus) {
    if (bus == NULL) return;
    api.bus_close(bus);
    api.bus_unref(bus);
}

int netprobe_bus_call(netprobe_bus *bus, const char *destination, const char *path, const char *interface,
                      const char *member, const char *string_argument, int has_int32, int32_t int32_argument,
                      uint64_t timeout_usec, netprobe_bus_message **reply, char *error, size_t error_size) {
    netprobe_bus_message *call = NULL;
    int r = api.message_new_method_call(bus, &call, destination, path, interface, member);
    if (r < 0) {
        snprintf(error, error_size, "cannot make the call");
        return r;
    }
    r = api.message_set_auto_start(call, 0);
    if (r >= 0 && string_argument != NULL) r = api.message_append_basic(call, 's', string_argument);
    if (r >= 0 && has_int32) r = api.message_append_basic(call, 'i', &int32_argument);
    if (r < 0) {
        api.message_unref(call);
        snprintf(error, error_size, "cannot make the call");
        return r;
    }
    sd_bus_error failure = {NULL, NULL, 0};
    r = api.call(bus, call, timeout_usec, &failure, reply);
    api.message_unref(call);
    if (r < 0) {
        snprintf(error, error_size, "%s: %s", failure.name ? failure.name : "error",
                 failure.message ? failure.message : "no answer");
        api.error_free(&failure);
    }
    return r;
}

void netprobe_bus_message_unref(netprobe_bus_message *message) {
    if (message != NULL) api.message_unref(message);
}

int netprobe_bus_message_peek(netprobe_bus_message *message, char *type, const char **contents) {
    return api.message_peek_type(message, type, contents);
}

int netprobe_bus_message_enter(netprobe_bus_message *message, char type, const char *contents) {
    return api.message_enter_container(message, type, contents);
}

int netprobe_bus_message_exit(netprobe_bus_message *message) { return api.message_exit_container(message); }

int netprobe_bus_message_skip(netprobe_bus_message *message, const char *types) {
    return api.message_skip(message, types);
}

int netprobe_bus_message_read_basic(netprobe_bus_message *message, char type, void *value) {
    return api.message_read_basic(message, type, value);
}

int netprobe_bus_message_read_bytes(netprobe_bus_message *message, const void **bytes, size_t *size) {
    return api.message_read_array(message, 'y', bytes, size);
}

