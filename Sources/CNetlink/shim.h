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
};

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

#endif
