// The libnl-3 surface NetprobeSystem uses. Only NetprobeSystem imports this module;
// everything above it sees plain Swift values.
//
// Everything NetprobeSystem calls is a plain (non-variadic) function, so no
// wrappers are needed; the variadic nl_socket_add_memberships() is avoided in
// favour of one nl_socket_add_membership() call per group.
#ifndef NETPROBE_CNETLINK_SHIM_H
#define NETPROBE_CNETLINK_SHIM_H

#include <netlink/netlink.h>
#include <netlink/errno.h>
#include <netlink/socket.h>
#include <netlink/cache.h>
#include <netlink/addr.h>
#include <netlink/route/rtnl.h>
#include <netlink/route/link.h>
#include <netlink/route/addr.h>
#include <netlink/route/route.h>
#include <netlink/route/nexthop.h>
#include <netlink/route/neighbour.h>
#include <netlink/msg.h>
#include <netlink/attr.h>
#include <netlink/handlers.h>

// glibc's interface-flag and hardware-type constants (IFF_*, ARPHRD_*): the
// same headers Swift's Glibc module uses, so nothing clashes with <linux/if.h>.
#include <net/if.h>
#include <net/if_arp.h>

// Kernel ABI values glibc's headers lack (<linux/if.h>, <linux/if_arp.h>);
// including those Linux headers next to glibc's would redefine IFF_*.
enum {
    CNETLINK_IFF_LOWER_UP = 0x10000,
    CNETLINK_ARPHRD_IP6GRE = 823,
    // <linux/if_addr.h>: an address with no lifetime (configured by hand or statically).
    CNETLINK_IFA_F_PERMANENT = 0x80,
};
// <net/ipv6/addrconf.h> INFINITY_LIFE_TIME: the valid_lft the kernel reports for "forever".
#define CNETLINK_INFINITY_LIFE_TIME 0xFFFFFFFFu

// One `ip route get DESTINATION`: RTM_GETROUTE with RTA_DST and no output device, no mark,
// no source, so the kernel answers for the machine's ordinary traffic with its policy rules,
// tables and metrics applied. It has callbacks, which Swift cannot pass without a context
// pointer, so it is written once here: Swift sees one call and a plain struct.
struct cnetlink_route_answer {
    int error;                  // the kernel's errno (positive) when it refused; 0 otherwise
    struct rtnl_route *route;   // the answer when it gave one; the caller frees it (rtnl_route_put)
};

static inline int cnetlink_route_answer_valid(struct nl_msg *message, void *context) {
    struct cnetlink_route_answer *answer = (struct cnetlink_route_answer *)context;
    if (answer->route == NULL) {
        struct rtnl_route *route = NULL;
        if (rtnl_route_parse(nlmsg_hdr(message), &route) >= 0) answer->route = route;
    }
    return NL_STOP;
}

static inline int cnetlink_route_answer_error(struct sockaddr_nl *peer, struct nlmsgerr *error, void *context) {
    (void)peer;
    struct cnetlink_route_answer *answer = (struct cnetlink_route_answer *)context;
    answer->error = error->error < 0 ? -error->error : error->error;
    return NL_STOP;
}

// Returns 0 with `answer` filled (a route, or the kernel's refusal in `error`), or a negative
// NLE_* code when the question could not be asked or the answer not read.
static inline int cnetlink_route_get(struct nl_sock *socket, int family, const void *destination, int length,
                                     struct cnetlink_route_answer *answer) {
    answer->error = 0;
    answer->route = NULL;
    // RTM_F_LOOKUP_TABLE: the answer names the table of the route that matched, not main.
    struct rtmsg header = {
        .rtm_family = (unsigned char)family,
        .rtm_dst_len = (unsigned char)(length * 8),
        .rtm_flags = RTM_F_LOOKUP_TABLE,
    };
    struct nl_msg *message = nlmsg_alloc_simple(RTM_GETROUTE, 0);
    if (message == NULL) return -NLE_NOMEM;
    struct nl_cb *callbacks = NULL;
    int result = nlmsg_append(message, &header, sizeof header, NLMSG_ALIGNTO);
    if (result >= 0) result = nla_put(message, RTA_DST, length, destination);
    if (result >= 0) {
        callbacks = nl_cb_alloc(NL_CB_DEFAULT);
        if (callbacks == NULL) result = -NLE_NOMEM;
    }
    if (result >= 0) {
        nl_cb_set(callbacks, NL_CB_VALID, NL_CB_CUSTOM, cnetlink_route_answer_valid, answer);
        nl_cb_err(callbacks, NL_CB_CUSTOM, cnetlink_route_answer_error, answer);
        // The answer, or the kernel's error, is the whole reply: no separate acknowledgement.
        nl_socket_disable_auto_ack(socket);
        result = nl_send_auto(socket, message);
    }
    if (result >= 0) result = nl_recvmsgs(socket, callbacks);
    if (callbacks != NULL) nl_cb_put(callbacks);
    nlmsg_free(message);
    if (answer->error != 0 || answer->route != NULL) return 0;
    return result < 0 ? result : -NLE_NOATTR;
}

// ---- NETLINK_SOCK_DIAG: the machine's TCP sockets and their tcp_info (`ss -ti`) ----------
// One dump request per family; the answers are flattened here into one plain struct per socket,
// so Swift reads no netlink framing. The kernel's struct tcp_info grows at its end from release
// to release; it is declared here as far as netprobe reads it (the bitfield bytes as plain
// bytes, the same layout), and an older kernel's shorter one leaves the rest zero.
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/inet_diag.h>

struct cnetlink_tcp_info {
    __u8 state, ca_state, retransmits, probes, backoff, options, wscale, flags;
    __u32 rto, ato, snd_mss, rcv_mss;
    __u32 unacked, sacked, lost, retrans, fackets;
    __u32 last_data_sent, last_ack_sent, last_data_recv, last_ack_recv;
    __u32 pmtu, rcv_ssthresh, rtt, rttvar, snd_ssthresh, snd_cwnd, advmss, reordering;
    __u32 rcv_rtt, rcv_space;
    __u32 total_retrans;
    __u64 pacing_rate, max_pacing_rate, bytes_acked, bytes_received;
    __u32 segs_out, segs_in;
    __u32 notsent_bytes, min_rtt, data_segs_in, data_segs_out;
    __u64 delivery_rate, busy_time, rwnd_limited, sndbuf_limited;
    __u32 delivered, delivered_ce;
    __u64 bytes_sent, bytes_retrans;
    __u32 dsack_dups, reord_seen, rcv_ooopack, snd_wnd;
    __u32 rcv_wnd;  // Linux 6.2 on: the receive window this end last advertised
};
_Static_assert(__builtin_offsetof(struct cnetlink_tcp_info, rcv_wnd) == 232, "tcp_info's rcv_wnd moved");

// One socket of a dump: where it goes, and how it fares.
struct cnetlink_tcp_socket {
    unsigned char family;       // AF_INET or AF_INET6
    unsigned char state;        // TCP_ESTABLISHED (1), TCP_SYN_SENT (2), ...
    unsigned short source_port, destination_port;
    unsigned char source[16], destination[16];  // IPv4: the first 4 bytes
    unsigned long long cookie;  // the kernel's identity of the socket
    unsigned int receive_queue; // idiag_rqueue: bytes received in order and not yet read
    int has_info;               // tcp_info came with it
    int has_receive_window;     // the kernel's tcp_info reaches rcv_wnd (Linux 6.2 on)
    struct cnetlink_tcp_info info;
};

// A NETLINK_SOCK_DIAG socket, close-on-exec; -errno on failure.
static inline int cnetlink_diag_open(void) {
    int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
    return fd < 0 ? -errno : fd;
}

// Asks for every TCP socket of `family` in `states` (a TCPF_* mask) with its tcp_info. 0 or -errno.
static inline int cnetlink_diag_request(int fd, int family, unsigned int states) {
    struct {
        struct nlmsghdr header;
        struct inet_diag_req_v2 request;
    } message;
    memset(&message, 0, sizeof message);
    message.header.nlmsg_len = sizeof message;
    message.header.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    message.header.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
    message.request.sdiag_family = (__u8)family;
    message.request.sdiag_protocol = IPPROTO_TCP;
    message.request.idiag_ext = 1 << (INET_DIAG_INFO - 1);
    message.request.idiag_states = states;
    struct sockaddr_nl kernel;
    memset(&kernel, 0, sizeof kernel);
    kernel.nl_family = AF_NETLINK;
    ssize_t sent = sendto(fd, &message, sizeof message, 0, (struct sockaddr *)&kernel, sizeof kernel);
    return sent < 0 ? -errno : 0;
}

// Reads one datagram of the dump's answer (`length` bytes at `buffer`) into `out` (at most
// `capacity`; `count` counts every socket, so a caller sees what did not fit). Returns 1 when
// the dump is complete, 0 when more datagrams follow, -errno when the kernel refused.
static inline int cnetlink_diag_parse(const void *buffer, int length, struct cnetlink_tcp_socket *out, int capacity,
                                      int *count) {
    const struct nlmsghdr *header = (const struct nlmsghdr *)buffer;
    int left = length;
    for (; NLMSG_OK(header, left); header = NLMSG_NEXT(header, left)) {
        if (header->nlmsg_type == NLMSG_DONE) return 1;
        if (header->nlmsg_type == NLMSG_ERROR) {
            const struct nlmsgerr *error = (const struct nlmsgerr *)NLMSG_DATA(header);
            return error->error < 0 ? error->error : -EPROTO;
        }
        if (header->nlmsg_type != SOCK_DIAG_BY_FAMILY || header->nlmsg_len < NLMSG_LENGTH(sizeof(struct inet_diag_msg))) continue;
        const struct inet_diag_msg *diag = (const struct inet_diag_msg *)NLMSG_DATA(header);
        int index = (*count)++;
        if (index >= capacity) continue;
        struct cnetlink_tcp_socket *socket = &out[index];
        memset(socket, 0, sizeof *socket);
        socket->family = diag->idiag_family;
        socket->state = diag->idiag_state;
        socket->source_port = ntohs(diag->id.idiag_sport);
        socket->destination_port = ntohs(diag->id.idiag_dport);
        memcpy(socket->source, diag->id.idiag_src, 16);
        memcpy(socket->destination, diag->id.idiag_dst, 16);
        socket->cookie = (unsigned long long)diag->id.idiag_cookie[0] | ((unsigned long long)diag->id.idiag_cookie[1] << 32);
        socket->receive_queue = diag->idiag_rqueue;
        int attributes = (int)header->nlmsg_len - (int)NLMSG_LENGTH(sizeof *diag);
        const struct rtattr *attribute = (const struct rtattr *)(diag + 1);
        for (; RTA_OK(attribute, attributes); attribute = RTA_NEXT(attribute, attributes)) {
            if (attribute->rta_type != INET_DIAG_INFO) continue;
            size_t size = RTA_PAYLOAD(attribute);
            memcpy(&socket->info, RTA_DATA(attribute), size < sizeof socket->info ? size : sizeof socket->info);
            socket->has_info = 1;
            socket->has_receive_window = size >= __builtin_offsetof(struct cnetlink_tcp_info, rcv_wnd) + sizeof socket->info.rcv_wnd;
        }
    }
    return 0;
}

#endif
