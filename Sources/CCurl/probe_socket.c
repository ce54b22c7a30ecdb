#include "shim.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <linux/tcp.h>

/*
 * The options every probe socket gets as libcurl makes it: two that save packets, one that
 * lets an offline verdict name the router that refused the way.
 *
 * Fewer packets per probe connection, nothing else about it changed.
 *
 * TCP_QUICKACK off before connect: a socket in delayed-ACK mode when the SYN-ACK arrives lets
 * its first data carry the handshake's last ACK (Linux keeps that ACK back for up to 200 ms;
 * the request or ClientHello leaves at once and takes it along), then leaves that mode, so
 * every later ACK is sent as usual. One packet fewer per connection; no answer comes later.
 *
 * SO_LINGER on with zero time: close() ends the connection with one RST instead of the FIN
 * exchange. A probe's connection is closed only after its answer is whole (the server's FIN
 * has usually arrived with it: `Connection: close`) or when the check no longer needs it;
 * either way nothing is left to deliver, and the server keeps no TIME_WAIT for it.
 *
 * While the connection is being made, IP_RECVERR (IPV6_RECVERR): an ICMP error about the
 * attempt is also queued on the socket, with the address of the router that sent it, so an
 * offline verdict can name the router that said "no route" (FaultLocator). socket_ledger.c turns
 * it on here for the runner's sockets (CURLOPT_SOCKOPTDATA: its ledger), off again once the
 * handshake is done (an established connection survives a transient unreachable), and reads
 * the queue as the socket closes.
 *
 * Each setting is a courtesy: a socket that refuses one is used as it is.
 */
static int probe_socket_options(void *clientp, curl_socket_t socket, curlsocktype purpose) {
    if (purpose != CURLSOCKTYPE_IPCXN) return CURL_SOCKOPT_OK;
    int off = 0;
    (void)setsockopt(socket, IPPROTO_TCP, TCP_QUICKACK, &off, sizeof off);
    struct linger abortive = { .l_onoff = 1, .l_linger = 0 };
    (void)setsockopt(socket, SOL_SOCKET, SO_LINGER, &abortive, sizeof abortive);
    netprobe_socket_ledger_connecting(clientp, socket);
    return CURL_SOCKOPT_OK;
}

CURLcode netprobe_easy_probe_socket_options(CURL *handle) {
    return netprobe_curl.easy_setopt(handle, CURLOPT_SOCKOPTFUNCTION, probe_socket_options);
}
