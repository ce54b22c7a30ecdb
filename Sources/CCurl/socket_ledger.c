#include "shim.h"

#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/errqueue.h>
#include <linux/tcp.h>

/*
 * The TCP payload a runner's connections carried, as the kernel counted it (TCP_INFO), read
 * from each socket just before libcurl closes it: TLS records, HTTP and CONNECT included,
 * TCP/IP headers and retransmissions not. libcurl's own sizes (CURLINFO_*_SIZE) count HTTP
 * only, and a connection that never got to HTTP (a TLS failure, a reset) not at all.
 *
 * Counted with atomics: a transfer ended on a thread of its own (end_later.c) may close its
 * socket there, while the runner reads the totals.
 *
 * The same moment reads the socket's error queue: the ICMP errors routers sent about the
 * connection's packets, kept (a few, under a lock) until the runner takes them.
 *
 * IP_RECVERR (IPV6_RECVERR) is what queues them, with the address of the router that sent
 * each, and it is on while the connection is being made only. Linux queues a TCP socket's ICMP
 * errors only before the handshake completes (tcp_v4_err, tcp_v6_err: SYN_SENT), where one
 * ends the attempt with or without the option. Once the connection is established the option
 * queues nothing more and does one thing: an unreachable, which RFC 1122 calls soft (a route
 * that flapped, a router restarting), ends the connection at once instead of being
 * retransmitted through. So the runner settles its sockets after every round of libcurl's
 * work (netprobe_socket_ledger_settle): a socket past its handshake has the option turned off,
 * and an unreachable that repeats ends it only when TCP gives up or the probe's time runs
 * out. The handshake's completion and the settling are one libcurl round apart: the request
 * or ClientHello it sent in that round meets a router's answer only after a round trip.
 */

#define ROUTER_ERRORS_KEPT 16
/* Sockets still connecting, each with IP_RECVERR on; a socket beyond these gets no option. */
#define CONNECTING_KEPT 128
/* tcp_info's tcpi_state, as the kernel numbers TCP's states (include/net/tcp_states.h):
 * <linux/tcp.h> does not name them, and <netinet/tcp.h>, which does, clashes with it. */
enum { STATE_SYN_SENT = 2, STATE_CLOSE = 7 };

struct netprobe_socket_ledger {
    unsigned long long sent;      /* tcpi_bytes_acked: what the peer acknowledged */
    unsigned long long received;  /* tcpi_bytes_received */
    pthread_mutex_t lock;         /* for the router errors and the sockets still connecting */
    size_t count;
    struct netprobe_router_error errors[ROUTER_ERRORS_KEPT];
    size_t connecting_count;
    int connecting[CONNECTING_KEPT];
};

/* Turns IP_RECVERR (IPV6_RECVERR) on or off on a socket of either family. */
static void receive_errors(int socket, int on) {
    int domain = 0;
    socklen_t length = sizeof domain;
    if (getsockopt(socket, SOL_SOCKET, SO_DOMAIN, &domain, &length) != 0) return;
    if (domain == AF_INET) (void)setsockopt(socket, IPPROTO_IP, IP_RECVERR, &on, sizeof on);
    if (domain == AF_INET6) (void)setsockopt(socket, IPPROTO_IPV6, IPV6_RECVERR, &on, sizeof on);
}

void netprobe_socket_ledger_connecting(struct netprobe_socket_ledger *ledger, int socket) {
    if (ledger == NULL) return;
    pthread_mutex_lock(&ledger->lock);
    if (ledger->connecting_count < CONNECTING_KEPT) {
        ledger->connecting[ledger->connecting_count++] = socket;
        receive_errors(socket, 1);
    }
    pthread_mutex_unlock(&ledger->lock);
}

/* Under the lock: the socket is no longer followed (it closes, or its handshake is done). */
static void forget_connecting(struct netprobe_socket_ledger *ledger, size_t index) {
    ledger->connecting[index] = ledger->connecting[--ledger->connecting_count];
}

/* Held under the lock throughout: a socket closing on another thread (end_later.c) waits in
 * close_counted until this is done, so no descriptor here is closed or reused meanwhile. A
 * socket whose attempt failed (CLOSE) keeps the option: its error waits in the queue until
 * it closes. */
void netprobe_socket_ledger_settle(struct netprobe_socket_ledger *ledger) {
    if (ledger == NULL) return;
    pthread_mutex_lock(&ledger->lock);
    for (size_t index = 0; index < ledger->connecting_count;) {
        int socket = ledger->connecting[index];
        struct tcp_info info;
        memset(&info, 0, sizeof info);
        socklen_t length = sizeof info;
        if (getsockopt(socket, IPPROTO_TCP, TCP_INFO, &info, &length) == 0 && info.tcpi_state != STATE_SYN_SENT &&
            info.tcpi_state != STATE_CLOSE) {
            receive_errors(socket, 0);
            forget_connecting(ledger, index);
        } else {
            index++;
        }
    }
    pthread_mutex_unlock(&ledger->lock);
}

struct netprobe_socket_ledger *netprobe_socket_ledger_new(void) {
    struct netprobe_socket_ledger *ledger = calloc(1, sizeof(struct netprobe_socket_ledger));
    if (ledger != NULL) pthread_mutex_init(&ledger->lock, NULL);
    return ledger;
}

void netprobe_socket_ledger_free(struct netprobe_socket_ledger *ledger) {
    if (ledger == NULL) return;
    pthread_mutex_destroy(&ledger->lock);
    free(ledger);
}

size_t netprobe_socket_ledger_take_router_errors(struct netprobe_socket_ledger *ledger, struct netprobe_router_error *out,
                                              size_t capacity) {
    if (ledger == NULL) return 0;
    pthread_mutex_lock(&ledger->lock);
    size_t taken = ledger->count < capacity ? ledger->count : capacity;
    memcpy(out, ledger->errors, taken * sizeof *out);
    ledger->count = 0;
    pthread_mutex_unlock(&ledger->lock);
    return taken;
}

/* One queued error: kept when a router sent it (not the machine's own), while there is room. */
static void keep_router_error(struct netprobe_socket_ledger *ledger, const struct sock_extended_err *error, int socket) {
    if (error->ee_origin != SO_EE_ORIGIN_ICMP && error->ee_origin != SO_EE_ORIGIN_ICMP6) return;
    struct netprobe_router_error kept;
    memset(&kept, 0, sizeof kept);
    const struct sockaddr *router = SO_EE_OFFENDER(error);
    kept.family = router->sa_family;
    kept.type = error->ee_type;
    kept.code = error->ee_code;
    const void *address = router->sa_family == AF_INET ? (const void *)&((const struct sockaddr_in *)router)->sin_addr
                        : router->sa_family == AF_INET6 ? (const void *)&((const struct sockaddr_in6 *)router)->sin6_addr
                        : NULL;
    if (address == NULL || inet_ntop(router->sa_family, address, kept.router, sizeof kept.router) == NULL) return;
    char device[IFNAMSIZ] = {0};
    socklen_t length = sizeof device;  /* the kernel wants room for IFNAMSIZ */
    if (getsockopt(socket, SOL_SOCKET, SO_BINDTODEVICE, device, &length) == 0 && length > 0) {
        memcpy(kept.interface, device, sizeof kept.interface - 1);
    }
    pthread_mutex_lock(&ledger->lock);
    if (ledger->count < ROUTER_ERRORS_KEPT) ledger->errors[ledger->count++] = kept;
    pthread_mutex_unlock(&ledger->lock);
}

/* Reads what the socket's error queue holds, a bounded few at most, without waiting. */
static void read_router_errors(struct netprobe_socket_ledger *ledger, int socket) {
    for (int round = 0; round < 4; round++) {
        char byte, control[512];
        struct sockaddr_storage destination;
        struct iovec part = { .iov_base = &byte, .iov_len = 1 };
        struct msghdr message = { .msg_name = &destination, .msg_namelen = sizeof destination, .msg_iov = &part,
                                  .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control };
        if (recvmsg(socket, &message, MSG_ERRQUEUE | MSG_DONTWAIT) < 0) return;
        for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL; header = CMSG_NXTHDR(&message, header)) {
            if ((header->cmsg_level == IPPROTO_IP && header->cmsg_type == IP_RECVERR) ||
                (header->cmsg_level == IPPROTO_IPV6 && header->cmsg_type == IPV6_RECVERR)) {
                keep_router_error(ledger, (const struct sock_extended_err *)CMSG_DATA(header), socket);
            }
        }
    }
}

unsigned long long netprobe_socket_ledger_sent(const struct netprobe_socket_ledger *ledger) {
    return __atomic_load_n(&ledger->sent, __ATOMIC_RELAXED);
}

unsigned long long netprobe_socket_ledger_received(const struct netprobe_socket_ledger *ledger) {
    return __atomic_load_n(&ledger->received, __ATOMIC_RELAXED);
}

/* A kernel before 4.1 has a shorter tcp_info without the two counters: nothing is added. */
void netprobe_socket_ledger_socket(struct netprobe_socket_ledger *ledger, int socket) {
    if (ledger == NULL) return;
    struct tcp_info info;
    memset(&info, 0, sizeof info);
    socklen_t length = sizeof info;
    if (getsockopt(socket, IPPROTO_TCP, TCP_INFO, &info, &length) != 0) return;
    read_router_errors(ledger, socket);
    size_t needed = offsetof(struct tcp_info, tcpi_bytes_received) + sizeof info.tcpi_bytes_received;
    if (length < needed) return;
    __atomic_fetch_add(&ledger->sent, (unsigned long long)info.tcpi_bytes_acked, __ATOMIC_RELAXED);
    __atomic_fetch_add(&ledger->received, (unsigned long long)info.tcpi_bytes_received, __ATOMIC_RELAXED);
}

/* CURLOPT_CLOSESOCKETFUNCTION: counts, then closes, as libcurl would have. The socket is
 * forgotten before it closes: its descriptor may be reused at once. */
static int close_counted(void *clientp, curl_socket_t socket) {
    struct netprobe_socket_ledger *ledger = clientp;
    netprobe_socket_ledger_socket(ledger, socket);
    if (ledger != NULL) {
        pthread_mutex_lock(&ledger->lock);
        for (size_t index = 0; index < ledger->connecting_count; index++) {
            if (ledger->connecting[index] == socket) {
                forget_connecting(ledger, index);
                break;
            }
        }
        int closed = close(socket);
        pthread_mutex_unlock(&ledger->lock);
        return closed;
    }
    return close(socket);
}

CURLcode netprobe_easy_keep_ledger(CURL *handle, struct netprobe_socket_ledger *ledger) {
    CURLcode code = netprobe_curl.easy_setopt(handle, CURLOPT_CLOSESOCKETFUNCTION, close_counted);
    if (code != CURLE_OK) return code;
    code = netprobe_curl.easy_setopt(handle, CURLOPT_SOCKOPTDATA, (void *)ledger);
    if (code != CURLE_OK) return code;
    return netprobe_curl.easy_setopt(handle, CURLOPT_CLOSESOCKETDATA, (void *)ledger);
}
