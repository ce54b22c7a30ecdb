#include "shim.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <linux/tcp.h>

/*
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
 * IP_RECVERR (IPV6_RECVERR): an ICMP error about the connection's packets is also queued on
 * the socket, with the address of the router that sent it; wire_tally.c reads it as the socket
 * closes, so an offline verdict can name the router that said "no route" (FaultLocator). A
 * connection attempt ends on such an error with or without it. Once connected, Linux then
 * ends the connection on an unreachable at once instead of retransmitting until the time-out:
 * for a probe, whose whole exchange is a few packets, the router's word is the answer.
 *
 * Each setting is a courtesy: a socket that refuses one is used as it is.
 */
static int lean_socket(void *clientp, curl_socket_t socket, curlsocktype purpose) {
    (void)clientp;
    if (purpose != CURLSOCKTYPE_IPCXN) return CURL_SOCKOPT_OK;
    int off = 0;
    (void)setsockopt(socket, IPPROTO_TCP, TCP_QUICKACK, &off, sizeof off);
    struct linger abortive = { .l_onoff = 1, .l_linger = 0 };
    (void)setsockopt(socket, SOL_SOCKET, SO_LINGER, &abortive, sizeof abortive);
    int on = 1, domain = 0;
    socklen_t length = sizeof domain;
    if (getsockopt(socket, SOL_SOCKET, SO_DOMAIN, &domain, &length) == 0) {
        if (domain == AF_INET) (void)setsockopt(socket, IPPROTO_IP, IP_RECVERR, &on, sizeof on);
        if (domain == AF_INET6) (void)setsockopt(socket, IPPROTO_IPV6, IPV6_RECVERR, &on, sizeof on);
    }
    return CURL_SOCKOPT_OK;
}

CURLcode netprobe_easy_lean_sockets(CURL *handle) {
    return netprobe_curl.easy_setopt(handle, CURLOPT_SOCKOPTFUNCTION, lean_socket);
}
