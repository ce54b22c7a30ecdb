# shellcheck shell=bash disable=SC2034 # the networks' constants are used by blocks-dhcp.sh too
# Building blocks for two networks behind the client's one eth0, as a laptop meets home and the
# office on one Wi-Fi card: network A and network B, each with its own router (gateway address
# and link-layer address), its own real DHCP server (dnsmasq, lib/blocks-dhcp.sh) and its own
# DNS domain; a real dhcpcd on the client follows the carrier and takes each network's lease,
# and its hook writes the client's resolv.conf from it. Both networks reach the same vendors'
# servers (the gateway's lo) and the same DNS server: nothing but the network changes.
# Sourced by lab/lab after blocks.sh; `lab do network A|B` switches while the lab runs.
#
# Network A is the lab's own addressing (GW_V4, the DHCP pool of blocks-dhcp.sh); network B
# is 203.0.113.192/27, which no other block uses. On network B, A's gateway address moves to
# the gateway's lo: the DNS server bound to it (dns_vendors) answers on both networks, through
# the router, as an operator's resolver beyond it does.

NETWORK_A_MAC=02:00:5e:00:53:0a
NETWORK_A_DOMAIN=home.example
NETWORK_B_GW=203.0.113.193
NETWORK_B_PREFIX=27
NETWORK_B_MASK=255.255.255.224
NETWORK_B_POOL_START=203.0.113.200
NETWORK_B_POOL_END=203.0.113.220
NETWORK_B_POOL_PATTERN='^203\.0\.113\.2[0-2][0-9]$'
NETWORK_B_MAC=02:00:5e:00:53:0b
NETWORK_B_DOMAIN=office.example

# network_current: A or B once `networks` ran (the network lan0 is on), else nothing.
network_current() {
    [[ -f $RUN/network ]] && cat "$RUN/network"
    return 0
}

# networks [--portal MODE] [DHCP_SERVER_ARGS...]: the client's eth0 on network A, configured
# by a real dhcpcd (dhcp_client dhcpcd --resolv) from A's DHCP server (dhcp_server with
# DHCP_SERVER_ARGS, e.g. --capport URI --no-option-114, and A's domain); returns once eth0
# holds A's lease and resolv.conf names A's domain. --portal MODE: network A is behind that
# portal (`portal MODE`) and B is open; `network` applies each one's while the carrier is off.
# Without it, portals are left to `lab do portal` alone. For a scenario's setup(), before
# dns_vendors and web_vendors.
networks() {
    local portal=''
    if [[ ${1:-} == --portal ]]; then portal=${2:?networks: --portal MODE}; shift 2; fi
    [[ ! -e $RUN/network ]] || die "networks: already set up (lab do network A|B switches)"
    mkdir -p "$RUN/networks"
    printf '%s\n' "$@" >"$RUN/networks/A.dhcp-args"
    printf '%s\n' "$portal" >"$RUN/networks/A.portal"
    : >"$RUN/networks/B.dhcp-args"
    : >"$RUN/networks/B.portal"
    echo A >"$RUN/network"
    network_router A
    network_dhcp_server A
    [[ -n $portal ]] && portal "$portal"
    dhcp_client dhcpcd --resolv
    network_wait A
}

# network A|B: the client moves to that network (again, if it is on it already): the carrier
# goes (the gateway's end of the link down; dhcpcd drops its lease and its hook empties
# resolv.conf), the other network's router takes the link (its address and link-layer
# address) with its DHCP server and portal, the carrier comes back, and dhcpcd takes a new
# lease (its old address is refused: NAK, DISCOVER). Returns once eth0 holds the network's
# lease and resolv.conf names its domain (bounded, 15 s).
network() {
    local to=${1:-} i
    [[ $to =~ ^[AB]$ && $# == 1 ]] || die "network A|B"
    [[ -f $RUN/network ]] || die "network: no networks here (a scenario's setup calls networks)"
    carrier off
    # dhcpcd's hook runs on the lost carrier: wait for it, so the new lease's file is the next.
    for ((i = 0; i < 100; i++)); do
        [[ -s /etc/netns/$CLIENT_NS/resolv.conf ]] || break
        sleep 0.05
    done
    [[ -s /etc/netns/$CLIENT_NS/resolv.conf ]] && die "network: dhcpcd did not see the carrier go (log: $RUN/dhcpcd.log)"
    dhcp_server_stop
    echo "$to" >"$RUN/network"
    network_router "$to"
    network_dhcp_server "$to"
    local portal
    portal=$(<"$RUN/networks/A.portal")
    if [[ -n $portal ]]; then
        if [[ $to == A ]]; then portal "$portal"; else portal_off; fi
    fi
    carrier on
    network_wait "$to"
}

# network_router A|B: the gateway's lan0 is that network's router: its IPv4 address (A's
# gateway address on lo while on B) and its link-layer address (gateway_mac: the client's
# neighbour table forgets the other).
network_router() {
    if [[ $1 == A ]]; then
        ip -n "$GW_NS" -4 addr del "$NETWORK_B_GW/$NETWORK_B_PREFIX" dev "$GW_IF" 2>/dev/null || true
        ip -n "$GW_NS" -4 addr del "$GW_V4/32" dev lo 2>/dev/null || true
        ip -n "$GW_NS" -4 addr replace "$GW_V4/$LAN_V4_PREFIX" dev "$GW_IF"
        gateway_mac "$NETWORK_A_MAC"
    else
        ip -n "$GW_NS" -4 addr del "$GW_V4/$LAN_V4_PREFIX" dev "$GW_IF" 2>/dev/null || true
        ip -n "$GW_NS" -4 addr replace "$GW_V4/32" dev lo
        ip -n "$GW_NS" -4 addr replace "$NETWORK_B_GW/$NETWORK_B_PREFIX" dev "$GW_IF"
        gateway_mac "$NETWORK_B_MAC"
    fi
}

# network_dhcp_server A|B: that network's DHCP server, with the arguments `networks` gave it
# and its domain.
network_dhcp_server() {
    local args=() domain=$NETWORK_A_DOMAIN
    [[ $1 == B ]] && domain=$NETWORK_B_DOMAIN
    mapfile -t args < <(sed '/^$/d' "$RUN/networks/$1.dhcp-args")
    dhcp_server "${args[@]}" --domain "$domain"
}

# network_wait A|B: until eth0 holds that network's lease (dhcp_client_wait) and dhcpcd's
# hook wrote its domain into resolv.conf (the hook runs once the lease is written and bound).
network_wait() {
    local domain=$NETWORK_A_DOMAIN i
    [[ $1 == B ]] && domain=$NETWORK_B_DOMAIN
    dhcp_client_wait dhcpcd
    for ((i = 0; i < 100; i++)); do
        grep -qx "search $domain" "/etc/netns/$CLIENT_NS/resolv.conf" && return 0
        sleep 0.05
    done
    die "network $1: resolv.conf does not name $domain (log: $RUN/dhcpcd.log)"
}
