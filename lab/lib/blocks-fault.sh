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

# no_route_onward 4|6|46: the gateway answers ARP/ND and DNS, but has no route on for the
# client's web traffic (TCP ports 80 and 443) and says so from its own address, as a router
# whose uplink is gone does: ICMP network unreachable, ICMPv6 no route, for every packet (no
# rate limit). The vendors' servers live in the gateway's namespace, so the kernel would send
# the error from the server's address: it leaves with the gateway's own instead.
no_route_onward() {
    local fam=${1:-46}
    [[ $fam =~ ^(4|6|46)$ ]] || die "no_route_onward 4|6|46"
    in_gw nft add chain inet lab onward_source "{ type filter hook output priority 0; policy accept; }"
    if [[ $fam == *4* ]]; then
        in_gw sysctl -qw net.ipv4.icmp_ratelimit=0
        in_gw nft add rule inet lab block iifname "$GW_IF" meta nfproto ipv4 tcp dport "{ 80, 443 }" \
            reject with icmp type net-unreachable
        in_gw nft add rule inet lab onward_source oifname "$GW_IF" icmp type destination-unreachable ip saddr set "$GW_V4"
    fi
    if [[ $fam == *6* ]]; then
        in_gw sysctl -qw net.ipv6.icmp.ratelimit=0
        in_gw nft add rule inet lab block iifname "$GW_IF" meta nfproto ipv6 tcp dport "{ 80, 443 }" \
            reject with icmpv6 type no-route
        in_gw nft add rule inet lab onward_source oifname "$GW_IF" icmpv6 type destination-unreachable ip6 saddr set "$GW_V6"
    fi
}

# unreachable_once 4|6: the gateway loses its way on for a moment, once per connection: the
# first data segment of each of the client's web connections (the request, or TLS's
# ClientHello: the first with PSH) is dropped (counted in transient_unreachable), and 20 ms
# later the gateway says ICMP network unreachable (ICMPv6 no route) about it from its own
# address (servers/icmp_later.py: nft's own reject would answer while the client still holds
# its socket, which Linux treats differently); the retransmission goes through. The error
# comes after the handshake, on an established connection: RFC 1122 calls it soft, and the
# connection must survive it.
unreachable_once() {
    local fam=${1:-} i
    [[ $fam == 4 || $fam == 6 ]] || die "unreachable_once 4|6"
    local gateway=$GW_V4 nfproto=ipv4
    [[ $fam == 6 ]] && gateway=$GW_V6 nfproto=ipv6
    bg_start icmp-later python3 "$LAB_DIR/servers/icmp_later.py" --interface "$GW_IF" --family "$fam" --gateway "$gateway"
    for ((i = 0; i < 100; i++)); do
        grep -qx ready "$RUN/icmp-later.log" 2>/dev/null && break
        pid_alive "$(<"$RUN/pids/icmp-later.pid")" || die "icmp_later exited: $(cat "$RUN/icmp-later.log")"
        sleep 0.05
    done
    in_gw nft add counter inet lab transient_unreachable
    in_gw nft add rule inet lab block iifname "$GW_IF" meta nfproto "$nfproto" tcp dport "{ 80, 443 }" ct state established \
        "tcp flags & (syn | fin | rst | psh) == psh" ct mark 0 ct mark set 1 counter name transient_unreachable drop
}
