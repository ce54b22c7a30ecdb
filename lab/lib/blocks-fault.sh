# shellcheck shell=bash
# Building blocks for where the way out breaks (the fault scenarios). Sourced by lab/lab
# after blocks.sh.

# gateway_silent 4|6|46: the gateway stops answering the client's ARP (4) and/or IPv6
# neighbour solicitations (6) on its LAN link, as a router that hung or was unplugged
# behind a switch: the client's link and route stay as they are, and the kernel's neighbour
# entry for the gateway goes INCOMPLETE, then FAILED, once the client sends anything its way.
# The client's neighbour cache is emptied, so no earlier answer stands in for it.
gateway_silent() {
    local fam=${1:-46}
    [[ $fam =~ ^(4|6|46)$ ]] || die "gateway_silent 4|6|46"
    if [[ $fam == *4* ]]; then
        in_gw nft -f - <<EOF2
table arp lab_silent {
    chain input { type filter hook input priority 0; policy accept; iifname "$GW_IF" drop; }
}
EOF2
    fi
    if [[ $fam == *6* ]]; then
        in_gw nft add rule inet lab block iifname "$GW_IF" icmpv6 type nd-neighbor-solicit drop
    fi
    ip -n "$CLIENT_NS" neigh flush dev "$CLIENT_IF"
}
