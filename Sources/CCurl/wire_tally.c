#include "shim.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/tcp.h>

/*
 * The TCP payload a runner's connections carried, as the kernel counted it (TCP_INFO), read
 * from each socket just before libcurl closes it: TLS records, HTTP and CONNECT included,
 * TCP/IP headers and retransmissions not. libcurl's own sizes (CURLINFO_*_SIZE) count HTTP
 * only, and a connection that never got to HTTP (a TLS failure, a reset) not at all.
 *
 * Counted with atomics: a transfer ended on a thread of its own (end_later.c) may close its
 * socket there, while the runner reads the totals.
 */

struct netprobe_wire_tally {
    unsigned long long sent;      /* tcpi_bytes_acked: what the peer acknowledged */
    unsigned long long received;  /* tcpi_bytes_received */
};

struct netprobe_wire_tally *netprobe_wire_tally_new(void) {
    return calloc(1, sizeof(struct netprobe_wire_tally));
}

void netprobe_wire_tally_free(struct netprobe_wire_tally *tally) { free(tally); }

unsigned long long netprobe_wire_tally_sent(const struct netprobe_wire_tally *tally) {
    return __atomic_load_n(&tally->sent, __ATOMIC_RELAXED);
}

unsigned long long netprobe_wire_tally_received(const struct netprobe_wire_tally *tally) {
    return __atomic_load_n(&tally->received, __ATOMIC_RELAXED);
}

/* A kernel before 4.1 has a shorter tcp_info without the two counters: nothing is added. */
void netprobe_wire_tally_socket(struct netprobe_wire_tally *tally, int socket) {
    if (tally == NULL) return;
    struct tcp_info info;
    memset(&info, 0, sizeof info);
    socklen_t length = sizeof info;
    if (getsockopt(socket, IPPROTO_TCP, TCP_INFO, &info, &length) != 0) return;
    size_t needed = offsetof(struct tcp_info, tcpi_bytes_received) + sizeof info.tcpi_bytes_received;
    if (length < needed) return;
    __atomic_fetch_add(&tally->sent, (unsigned long long)info.tcpi_bytes_acked, __ATOMIC_RELAXED);
    __atomic_fetch_add(&tally->received, (unsigned long long)info.tcpi_bytes_received, __ATOMIC_RELAXED);
}

/* CURLOPT_CLOSESOCKETFUNCTION: counts, then closes, as libcurl would have. */
static int close_counted(void *clientp, curl_socket_t socket) {
    netprobe_wire_tally_socket(clientp, socket);
    return close(socket);
}

CURLcode netprobe_easy_count_wire(CURL *handle, struct netprobe_wire_tally *tally) {
    CURLcode code = netprobe_curl.easy_setopt(handle, CURLOPT_CLOSESOCKETFUNCTION, close_counted);
    if (code != CURLE_OK) return code;
    return netprobe_curl.easy_setopt(handle, CURLOPT_CLOSESOCKETDATA, (void *)tally);
}
