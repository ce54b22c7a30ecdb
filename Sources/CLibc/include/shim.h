#ifndef NETPROBE_CLIBC_SHIM_H
#define NETPROBE_CLIBC_SHIM_H

/*
 * glibc functions that Swift's Glibc module does not export, declared once with their real
 * types so the compiler checks every call. Each wrapper is static inline: nothing to link.
 */
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>
#include <time.h>

/* Added in glibc 2.34; netprobe runs on older ones. A weak reference is null where the C
 * library lacks it, and the loader does not refuse to start for a weak symbol's version. */
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from)
    __attribute__((weak));

/* Closes every descriptor from `from` up in the child; ENOSYS where glibc is older than 2.34. */
static inline int np_spawn_add_close_from(posix_spawn_file_actions_t *actions, int from) {
    if (!posix_spawn_file_actions_addclosefrom_np) return ENOSYS;
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

static inline int np_timerfd_create(int clock, int flags) { return timerfd_create(clock, flags); }

static inline int np_timerfd_settime(int fd, int flags, const struct itimerspec *value) {
    return timerfd_settime(fd, flags, value, NULL);
}

/* TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET: only a change of the clock wakes the timer. */
static inline int np_timerfd_cancel_on_set_flags(void) { return TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET; }

static inline int np_malloc_trim(void) { return malloc_trim(0); }

/* Moves the calling thread (only it: a namespace is a thread's) into the network namespace
 * that `fd` refers to (setns(2), CLONE_NEWNET): tests run the DHCP sockets on a thread of their
 * own inside a namespace they made. 0, or -1 with errno. */
static inline int np_enter_network_namespace(int fd) { return (int)syscall(SYS_setns, fd, 0x40000000 /* CLONE_NEWNET */); }

/*
 * A packet socket on one interface that receives only IPv4 UDP datagrams to `port`, each from
 * its IP header on (SOCK_DGRAM: no link header), non-blocking, with PACKET_AUXDATA on so that
 * each read says whether the UDP checksum is there to verify. A DHCP client that keeps a UDP
 * socket bound to its address takes the server's unicast answers to port 68 from every
 * wildcard socket on that port; a packet socket sees them as well. The filter is attached before
 * the socket is bound to a protocol, so nothing else is ever queued on it. Returns the
 * descriptor, or -errno (EPERM without CAP_NET_RAW, EAFNOSUPPORT where the family is denied).
 */
int np_udp_packet_socket(const char *interface, uint16_t port);

/*
 * Reads one packet from a packet socket made by np_udp_packet_socket into `buffer`; sets
 * `*checksum_ready` to 0 when the kernel says the checksums were not computed yet
 * (TP_STATUS_CSUMNOTREADY: a packet this machine or a virtual link's peer left to a device that
 * never fills them in), else 1. Returns the length, or -errno (-EAGAIN when none waits).
 */
long np_packet_receive(int fd, uint8_t *buffer, size_t capacity, int *checksum_ready);

/*
 * Sends `length` bytes on the UDP socket `fd` to `destination`:`port` (four bytes each address)
 * from `source`, out of interface `ifindex` (IP_PKTINFO), whatever address or device the socket
 * is bound to. Returns the bytes sent, or -errno.
 */
long np_udp_send_from(int fd, const uint8_t *bytes, size_t length, unsigned int ifindex, const uint8_t *source,
                      const uint8_t *destination, uint16_t port);

/* The arguments main was given (arguments.c): the count, -1 when the C library handed none to
 * the program's initialisers; and one of them, NULL past the end. Read without /proc. */
int np_program_argc(void);
char *np_program_argument(int index);

#endif
