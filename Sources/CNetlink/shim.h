// The libnl-3 surface NetprobeLink uses. Only NetprobeLink imports this module;
// everything above it sees plain Swift values.
//
// Everything NetprobeLink calls is a plain (non-variadic) function, so no
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

#endif
