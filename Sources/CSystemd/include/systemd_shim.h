#ifndef NETPROBE_CSYSTEMD_SHIM_H
#define NETPROBE_CSYSTEMD_SHIM_H

/*
 * libsystemd's sd-bus, loaded on first use, behind typed wrappers.
 *
 * The daemons that configure a link (NetworkManager, systemd-resolved) are asked through their
 * public interface, D-Bus. (libsystemd exports no sd-network: networkd's state is read from its
 * files.) The binary does not link
 * libsystemd: a check whose gate says offline asks nothing and must not load it, and a machine
 * without it still runs (the files are read instead). netprobe_systemd_load() dlopens
 * libsystemd.so.0 once and resolves every entry point into one table.
 *
 * The few sd-bus types and prototypes used are declared here, as <systemd/sd-bus.h> declares them (a stable ABI since libsystemd 221), so that building
 * needs no libsystemd-dev and the release sysroot stays as it is. sd-bus's variadic calls are
 * never used: each value is read with read_basic and the type it has.
 *
 * Call nothing here before netprobe_systemd_load() returned 0. Not thread-safe per bus: one
 * bus is used by one thread at a time (OwnerBus holds it under a lock).
 */

#include <stddef.h>
#include <stdint.h>

typedef struct netprobe_bus netprobe_bus;
typedef struct netprobe_bus_message netprobe_bus_message;

/* Loads libsystemd.so.0 and resolves the table. 0 on success; otherwise -1 with dlerror's
 * text in `message`. Called once (a Swift global `let`). */
int netprobe_systemd_load(char *message, size_t size);

/* A connection to the system bus at `address` (a D-Bus address; NULL or empty: as
 * sd_bus_open_system, DBUS_SYSTEM_BUS_ADDRESS, else /run/dbus/system_bus_socket), connected,
 * authenticated and its Hello answered within `timeout_usec`. 0 with `*bus` set; -ETIMEDOUT
 * when the broker did not answer in time; another -errno when it cannot be reached. */
int netprobe_bus_connect_system(const char *address, uint64_t timeout_usec, netprobe_bus **bus);
/* Whether the connection still stands (the broker did not close it). */
int netprobe_bus_is_open(netprobe_bus *bus);
/* Closes and frees, never waiting for the broker. */
void netprobe_bus_close(netprobe_bus *bus);

/* One method call, waited for at most `timeout_usec`, that never starts a service by bus
 * activation (a daemon that is not running is not one to ask). `string_argument` (or NULL)
 * and then, when `has_int32`, `int32_argument` are its arguments. 0 with `*reply` set (unref
 * it), or -errno with the D-Bus error's name and text in `error`. */
int netprobe_bus_call(netprobe_bus *bus, const char *destination, const char *path, const char *interface,
                      const char *member, const char *string_argument, int has_int32, int32_t int32_argument,
                      uint64_t timeout_usec, netprobe_bus_message **reply, char *error, size_t error_size);
void netprobe_bus_message_unref(netprobe_bus_message *message);

/* Walking a reply: the type of the next value (0 at the end of the container, with
 * `*contents` the signature inside a container), into and out of containers, a basic value
 * read into `value` (its C type is the one sd-bus gives the D-Bus type), a byte array. */
int netprobe_bus_message_peek(netprobe_bus_message *message, char *type, const char **contents);
int netprobe_bus_message_enter(netprobe_bus_message *message, char type, const char *contents);
int netprobe_bus_message_exit(netprobe_bus_message *message);
int netprobe_bus_message_skip(netprobe_bus_message *message, const char *types);
int netprobe_bus_message_read_basic(netprobe_bus_message *message, char type, void *value);
int netprobe_bus_message_read_bytes(netprobe_bus_message *message, const void **bytes, size_t *size);


#endif
