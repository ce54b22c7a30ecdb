# shellcheck shell=bash
# Scenario building blocks. A scenario's setup() calls these; so does
# `lab do BLOCK ARGS...` on a running lab (e.g. to turn a portal on mid-test).
# Every block acts on the run loaded by run_select/run_create ($RUN, $CLIENT_NS,
# $GW_NS), and only inside the lab's two namespaces.

# ---- client addressing ---------------------------------------------------------

# client_ipv4 [--no-default-route | --metric N]: address on eth0, default
# route via the gateway (with metric N: see client_uplink2, client_tun), the
# gateway as nameserver.
client_ipv4() {
    ip -n "$CLIENT_NS" addr add "$CLIENT_V4/$LAN_V4_PREFIX" dev "$CLIENT_IF"
    case ${1:-} in
        --no-default-route) ;;
        --metric) default_route add 4 --metric "${2:-}" ;;
        '') default_route add 4 ;;
        *) die "client_ipv4 [--no-default-route | --metric N]" ;;
    esac
    echo "nameserver $GW_V4" >>"/etc/netns/$CLIENT_NS/resolv.conf"
}

# client_leased [SECONDS]: eth0's IPv4 address (client_ipv4) held with a finite lifetime
# (default 3600 s), as a DHCP client leaves its lease (dhclient-script, dhcpcd, networkd,
# NetworkManager all set valid_lft to the lease time) when netprobe reads no lease of it.
# Without it the address is permanent, as a static configuration leaves it.
client_leased() {
    local seconds=${1:-3600}
    [[ $seconds =~ ^[0-9]+$ ]] || die "client_leased [SECONDS]"
    ip -n "$CLIENT_NS" addr change "$CLIENT_V4/$LAN_V4_PREFIX" dev "$CLIENT_IF" \
        valid_lft "$seconds" preferred_lft "$seconds"
}

# client_ipv6 [--no-default-route | --link-local-only | --metric N]: the same for IPv6.
# --link-local-only: the router is there (default route via its link-local
# address, as a Router Advertisement gives) but no global address was ever
# assigned (no prefix in the RA, no DHCPv6), and no nameserver is known.
client_ipv6() {
    in_client sysctl -qw "net.ipv6.conf.$CLIENT_IF.disable_ipv6=0"
    if [[ ${1:-} == --link-local-only ]]; then
        ip -n "$GW_NS" addr add "$GW_V6_LL/64" dev "$GW_IF" nodad 2>/dev/null || true
        ip -n "$CLIENT_NS" -6 route add default via "$GW_V6_LL" dev "$CLIENT_IF"
        return
    fi
    ip -n "$CLIENT_NS" addr add "$CLIENT_V6/$LAN_V6_PREFIX" dev "$CLIENT_IF" nodad
    case ${1:-} in
        --no-default-route) ;;
        --metric) default_route add 6 --metric "${2:-}" ;;
        '') default_route add 6 ;;
        *) die "client_ipv6 [--no-default-route | --link-local-only | --metric N]" ;;
    esac
    echo "nameserver $GW_V6" >>"/etc/netns/$CLIENT_NS/resolv.conf"
}

# default_route add|del [4|6|46] [--metric N] [--table T]: the client's default route(s)
# via the gateway on eth0, in routing table T (default main). Without --metric: the
# kernel's default (0 for IPv4, 1024 for IPv6); del removes the route whatever its metric.
default_route() {
    local op=${1:-} fam=46 metric_args=() table=main
    shift || true
    if [[ ${1:-} =~ ^[46]+$ ]]; then fam=$1; shift; fi
    if [[ ${1:-} == --metric ]]; then
        check_metric default_route "${2:-}"
        metric_args=(metric "$2"); shift 2
    fi
    if [[ ${1:-} == --table ]]; then check_metric default_route "${2:-}"; table=$2; shift 2; fi
    [[ ($op == add || $op == del) && $# == 0 ]] || die "default_route add|del [4|6|46] [--metric N] [--table T]"
    [[ $fam == *4* ]] && ip -n "$CLIENT_NS" -4 route "$op" default via "$GW_V4" dev "$CLIENT_IF" "${metric_args[@]}" table "$table"
    [[ $fam == *6* ]] && ip -n "$CLIENT_NS" -6 route "$op" default via "$GW_V6" dev "$CLIENT_IF" "${metric_args[@]}" table "$table"
    return 0
}

# check_metric BLOCK VALUE: die (naming BLOCK) unless VALUE is a route metric.
check_metric() {
    [[ $2 =~ ^[0-9]{1,9}$ ]] || die "$1: --metric wants a number, not '$2'"
}

# ---- more paths: a second uplink, a tunnel ---------------------------------------

# client_uplink2 [4|6|46] [--metric N] [--table T]: a second uplink, as a laptop with
# Ethernet and Wi-Fi has: another veth pair from the client (eth1) to the same
# gateway (lan1), an address of each family (CLIENT2_*/GW2_* in lab.sh) and a
# default route via it with metric N (default 200), in routing table T (default
# main; a working VPN tunnel's table with policy_rule). The nameservers stay the
# first uplink's (on-link there). Every gateway rule of the other blocks
# matches iifname lan0, so traffic through this uplink is open unless a block
# is told otherwise (portal --iif lan1). Counters uplink2_packets, _dns,
# _http, _https and _syns count what arrives through it (lab counters).
client_uplink2() {
    local fam=46 metric=200 table=main
    if [[ ${1:-} =~ ^[46]+$ ]]; then fam=$1; shift; fi
    if [[ ${1:-} == --metric ]]; then check_metric client_uplink2 "${2:-}"; metric=$2; shift 2; fi
    if [[ ${1:-} == --table ]]; then check_metric client_uplink2 "${2:-}"; table=$2; shift 2; fi
    (($# == 0)) || die "client_uplink2 [4|6|46] [--metric N] [--table T]"
    ip -n "$CLIENT_NS" link add "$CLIENT_IF2" type veth peer name "$GW_IF2" netns "$GW_NS"
    device_made "$CLIENT_NS" "$CLIENT_IF2"
    multihomed
    if [[ $fam == *4* ]]; then
        ip -n "$GW_NS" addr add "$GW2_V4/$UPLINK2_V4_PREFIX" dev "$GW_IF2"
        ip -n "$CLIENT_NS" addr add "$CLIENT2_V4/$UPLINK2_V4_PREFIX" dev "$CLIENT_IF2"
    fi
    if [[ $fam == *6* ]]; then
        in_client sysctl -qw "net.ipv6.conf.$CLIENT_IF2.disable_ipv6=0"
        ip -n "$GW_NS" addr add "$GW2_V6/$UPLINK2_V6_PREFIX" dev "$GW_IF2" nodad
        ip -n "$CLIENT_NS" addr add "$CLIENT2_V6/$UPLINK2_V6_PREFIX" dev "$CLIENT_IF2" nodad
    fi
    ip -n "$GW_NS" link set "$GW_IF2" up
    ip -n "$CLIENT_NS" link set "$CLIENT_IF2" up
    [[ $fam == *4* ]] && ip -n "$CLIENT_NS" -4 route add default via "$GW2_V4" dev "$CLIENT_IF2" metric "$metric" table "$table"
    [[ $fam == *6* ]] && ip -n "$CLIENT_NS" -6 route add default via "$GW2_V6" dev "$CLIENT_IF2" metric "$metric" table "$table"
    local c what
    for c in "packets:meta l4proto { tcp, udp }" "dns:meta l4proto { tcp, udp } th dport 53" \
        "http:tcp dport 80" "https:tcp dport 443" "syns:tcp flags & (syn | ack) == syn"; do
        what=${c#*:}
        in_gw nft add counter inet lab "uplink2_${c%%:*}" "{ comment \"second uplink: $what\"; }"
        # shellcheck disable=SC2086 # the match is nft words
        in_gw nft add rule inet lab count iifname "$GW_IF2" $what counter name "uplink2_${c%%:*}"
    done
    link_settle "$CLIENT_IF2"
}

# client_tun [4|6|46] [--metric N] [--table T | --route PREFIX]: a VPN tunnel whose far
# end is gone: a tun device (tun0) held open by servers/tun_hold.py in the client
# namespace, so it is up with carrier, an address of each family (TUN_* in lab.sh)
# and a default route through it with metric N (default 50, below an uplink's: the
# tunnel carries the machine's traffic), in routing table T (default main: wg-quick
# uses 51820, with policy_rule), or, with --route, a route to PREFIX instead of a
# default route (Tailscale's 100.64.0.0/10 in table 52). Every packet routed into it is read
# and dropped; nothing ever comes back. `lab counters` has client_tun0_tx,
# the packets sent into it.
client_tun() {
    local fam=46 metric=50 table=main prefix=default
    if [[ ${1:-} =~ ^[46]+$ ]]; then fam=$1; shift; fi
    if [[ ${1:-} == --metric ]]; then check_metric client_tun "${2:-}"; metric=$2; shift 2; fi
    if [[ ${1:-} == --table ]]; then check_metric client_tun "${2:-}"; table=$2; shift 2; fi
    if [[ ${1:-} == --route ]]; then prefix=${2:-}; shift 2; fi
    (($# == 0)) || die "client_tun [4|6|46] [--metric N] [--table T] [--route PREFIX]"
    ip -n "$CLIENT_NS" tuntap add dev "$TUN_IF" mode tun
    device_made "$CLIENT_NS" "$TUN_IF"
    multihomed
    ip -n "$CLIENT_NS" link set "$TUN_IF" up
    bg_start_client tun python3 "$LAB_DIR/servers/tun_hold.py" "$TUN_IF"
    bg_wait_carrier tun "$TUN_IF"
    [[ $fam == *4* ]] && ip -n "$CLIENT_NS" addr add "$TUN_V4/$TUN_V4_PREFIX" dev "$TUN_IF"
    if [[ $fam == *6* ]]; then
        in_client sysctl -qw "net.ipv6.conf.$TUN_IF.disable_ipv6=0"
        ip -n "$CLIENT_NS" addr add "$TUN_V6/$TUN_V6_PREFIX" dev "$TUN_IF" nodad
    fi
    [[ $fam == *4* ]] && ip -n "$CLIENT_NS" -4 route add "$prefix" dev "$TUN_IF" metric "$metric" table "$table"
    [[ $fam == *6* ]] && ip -n "$CLIENT_NS" -6 route add "$prefix" dev "$TUN_IF" metric "$metric" table "$table"
    return 0
}

# policy_rule [4|6|46] SELECTOR... ACTION...: an `ip rule` on the client, as VPN clients
# add them: wg-quick `not fwmark 51820 table 51820` and `table main
# suppress_prefixlength 0`; Tailscale `pref 5270 table 52`.
policy_rule() {
    local fam=4
    if [[ ${1:-} =~ ^[46]+$ ]]; then fam=$1; shift; fi
    (($# > 0)) || die "policy_rule [4|6|46] RULE..."
    [[ $fam == *4* ]] && ip -n "$CLIENT_NS" -4 rule add "$@"
    [[ $fam == *6* ]] && ip -n "$CLIENT_NS" -6 rule add "$@"
    return 0
}

# route_refuse unreachable|blackhole|prohibit [4|6|46]: a default route of that type in
# the client's main table (replacing one of another type): the kernel answers every packet
# with an error, at once.
route_refuse() {
    local kind=${1:-} fam=46
    [[ $kind =~ ^(unreachable|blackhole|prohibit)$ ]] || die "route_refuse unreachable|blackhole|prohibit [4|6|46]"
    shift
    if [[ ${1:-} =~ ^[46]+$ ]]; then fam=$1; shift; fi
    [[ $fam == *4* ]] && ip -n "$CLIENT_NS" -4 route replace "$kind" default
    [[ $fam == *6* ]] && ip -n "$CLIENT_NS" -6 route replace "$kind" default
    return 0
}

# multihomed: loose reverse-path filtering on the client, as NetworkManager
# sets it on a machine with several default routes: an answer arriving on an
# interface other than the one under the best default route (to a probe bound
# to the second uplink) must not be dropped. A new namespace inherits its
# IPv4 settings from the host's, which may be strict.
multihomed() {
    in_client sysctl -qw net.ipv4.conf.all.rp_filter=2
}

# bg_wait_carrier NAME IF: wait (bounded) until the client's IF is up with
# carrier, which the process NAME (bg_start_client) brings about.
bg_wait_carrier() {
    local name=$1 dev=$2 pid i state='' flags=''
    pid=$(<"$RUN/pids/$name.pid")
    for ((i = 0; i < 100; i++)); do
        if ! pid_alive "$pid"; then
            sed 's/^/    /' "$RUN/$name.log" >&2 || true
            die "$name exited during start-up (log above)"
        fi
        read -r _ state flags < <(ip -n "$CLIENT_NS" -br link show dev "$dev")
        [[ $state == UP && $flags == *LOWER_UP* ]] && return 0
        sleep 0.05
    done
    die "$dev did not come up with carrier within 5 s (state $state, flags $flags; log: $RUN/$name.log)"
}

# carrier off|on: take the gateway's end of the veth down, so the client's
# eth0 stays administratively up but loses carrier (NO-CARRIER, like a cable pulled).
carrier() {
    case ${1:-} in
        off) ip -n "$GW_NS" link set "$GW_IF" down ;;
        on) ip -n "$GW_NS" link set "$GW_IF" up ;;
        *) die "carrier off|on" ;;
    esac
    link_settle
}

# gateway_mac ADDR: the gateway's LAN link takes another link-layer address (another
# router), and the client forgets what its neighbour table learned of the old one.
gateway_mac() {
    [[ ${1:-} =~ ^([0-9a-f]{2}:){5}[0-9a-f]{2}$ ]] || die "gateway_mac aa:bb:cc:dd:ee:ff"
    ip -n "$GW_NS" link set "$GW_IF" address "$1"
    ip -n "$CLIENT_NS" neigh flush dev "$CLIENT_IF"
}

# search_domain NAME: the client's resolv.conf names NAME as its search domain (any earlier
# search or domain line goes). Written in place: `ip netns exec` bind-mounts this very file,
# and a renamed one would not be seen by a process already running.
search_domain() {
    [[ ${1:-} =~ ^[a-z0-9.-]+$ ]] || die "search_domain NAME"
    local file=/etc/netns/$CLIENT_NS/resolv.conf kept
    kept=$(grep -vE '^(search|domain)[[:space:]]' "$file" || true)
    printf '%s\nsearch %s\n' "$kept" "$1" >"$file"
}

# link_settle [IF]: wait (bounded) until the kernel's operstate of the
# client's IF (default eth0) agrees with its carrier. The kernel updates
# operstate asynchronously (linkwatch, up to ~1 s), and a check started in
# between would see "down" on a link that is up.
link_settle() {
    local i flags state dev=${1:-$CLIENT_IF}
    for ((i = 0; i < 60; i++)); do
        read -r _ state _ flags < <(ip -n "$CLIENT_NS" -br link show dev "$dev")
        if [[ $flags == *LOWER_UP* ]]; then
            [[ $state == UP ]] && return 0
        else
            [[ $state != UP ]] && return 0
        fi
        sleep 0.05
    done
    die "$dev operstate did not settle (state $state, flags $flags)"
}

# ---- servers -----------------------------------------------------------------

# dnsmasq_start ARGS...: dnsmasq on the gateway's lab addresses, no upstream,
# with the given extra arguments. Any name not answered by ARGS is NXDOMAIN
# (unless ARGS bring their own catch-all --address=/#/...).
dnsmasq_start() {
    local catch_all=--address=/#/ a
    for a; do [[ $a == --address=/#/* ]] && catch_all=; done
    bg_start dnsmasq dnsmasq --keep-in-foreground --conf-file=/dev/null --no-resolv --no-hosts \
        --bind-interfaces --listen-address="$GW_V4" --listen-address="$GW_V6" \
        --pid-file="$RUN/dnsmasq.pid" --user=nobody --group=nogroup \
        --log-facility=- --log-queries "$@" ${catch_all:+"$catch_all"}
    bg_wait_listen dnsmasq udp "$GW_V4:53"
}

# dns_vendors: A and AAAA records for every name in conf/hosts (the names are
# dual-stack on the real Internet, so they are here; the client's addressing
# decides which family it can use).
dns_vendors() {
    local name v4 v6 rest args=()
    while read -r name v4 v6 rest; do
        args+=("--host-record=$name,$v4,$v6")
    done < <(conf_rows hosts)
    dnsmasq_start "${args[@]}" "$@"
}

# dns_hijack [NAME...]: a lying resolver, as DNS-hijacking portals run: every
# name resolves to $HIJACK_V4 (a private address on the gateway, see lab.sh;
# A only, AAAA queries get no data), except each NAME from conf/hosts, which
# keeps its real records (a portal that allow-lists it).
dns_hijack() {
    # --local=/#/: AAAA queries get NODATA (not REFUSED for want of an upstream).
    local args=("--address=/#/$HIJACK_V4" --local=/#/) name v4
    for name; do
        v4=$(host_addr "$name" 4)
        [[ -n $v4 ]] || die "dns_hijack: '$name' is not in conf/hosts"
        args+=("--host-record=$name,$v4,$(host_addr "$name" 6)")
    done
    # The lie must point into the lab: the address has to be the gateway's own.
    ip -n "$GW_NS" -4 addr show dev lo | grep -qF " $HIJACK_V4/" || die "$HIJACK_V4 is not on the gateway"
    dnsmasq_start "${args[@]}"
}

# dns_rcode RCODE: a DNS server answering every query with RCODE (2 = SERVFAIL).
dns_rcode() {
    bg_start dns python3 "$LAB_DIR/servers/dns_rcode.py" --rcode "${1:-2}" \
        --listen "$GW_V4" --listen "$GW_V6"
    bg_wait_listen dns udp "$GW_V4:53"
}

# web_vendors: nginx with the vendors' real answers and every portal flavour.
web_vendors() {
    local conf=$RUN/nginx.conf addr
    sed -e "s|@RUN@|$RUN|g" -e "s|@TLS@|$RUN/tls|g" -e "s|@PAGES@|$LAB_DIR/conf/pages|g" \
        -e "s|@HIJACK_V4@|$HIJACK_V4|g" "$LAB_DIR/conf/nginx.conf.in" >"$conf"
    for addr in $(conf_rows hosts | awk '$4 != "odd" {print $2, $3}') $(conf_rows portals | awk '{print $2, $3}'); do
        grep -qF -- "$addr" "$conf" || die "nginx.conf.in does not listen on $addr (conf/hosts, conf/portals)"
    done
    # A WISPr page whose values try to drive the terminal (portal wispr-hostile):
    # ESC sequences that would clear the screen and retitle the window, a BEL,
    # a carriage return and a right-to-left override (U+202E).
    mkdir -p "$RUN/pages"
    printf '%s\n' '<html><head><title>Lab Wi-Fi</title></head><body><!--' \
        '<WISPAccessGatewayParam><Redirect><MessageType>100</MessageType><ResponseCode>0</ResponseCode>' \
        "<LocationName>Lab$(printf '\033[2J\033]0;pwned\007')Cafe$(printf '\r')Bar $(printf '\342\200\256')gpj.exe</LocationName>" \
        "<LoginURL>https://login.portal.test/wispr/login?venue=lab&amp;esc=$(printf '\033')[31m</LoginURL>" \
        '</Redirect></WISPAccessGatewayParam>--></body></html>' >"$RUN/pages/wispr-hostile.html"
    bg_start nginx nginx -c "$conf" -e "$RUN/nginx-error.log"
    bg_wait_listen nginx tcp 203.0.113.15:443
}

# slow_servers MIN MAX: every tcp/80 and tcp/443 connection from the client
# waits MIN..MAX seconds (fixed per destination) before the server answers.
# A relay stands in front of nginx (the kernel here has no netem).
slow_servers() {
    local min=${1:-1} max=${2:-2}
    bg_start delay python3 "$LAB_DIR/servers/delay_relay.py" --delay "$min" "$max" \
        --listen 0.0.0.0:10080 --listen "[::]:10080" --listen 0.0.0.0:10443 --listen "[::]:10443"
    bg_wait_listen delay tcp 0.0.0.0:10443
    in_gw nft add rule inet lab relay iifname "$GW_IF" tcp dport 80 redirect to :10080
    in_gw nft add rule inet lab relay iifname "$GW_IF" tcp dport 443 redirect to :10443
}

# slow_capport SECONDS: the Captive Portal API (conf/hosts: capport) answers
# only after SECONDS; the probes' servers stay fast. Same relay as slow_servers.
slow_capport() {
    local delay=${1:?slow_capport SECONDS}
    bg_start capport-delay python3 "$LAB_DIR/servers/delay_relay.py" --delay "$delay" "$delay" \
        --listen 0.0.0.0:10444 --listen "[::]:10444"
    bg_wait_listen capport-delay tcp 0.0.0.0:10444
    in_gw nft add rule inet lab relay iifname "$GW_IF" ip daddr "$(host_addr capport.portal.test 4)" \
        tcp dport 443 redirect to :10444
    in_gw nft add rule inet lab relay iifname "$GW_IF" ip6 daddr "$(host_addr capport.portal.test 6)" \
        tcp dport 443 redirect to :10444
}

# bulk_traffic FLOW...: steady TCP traffic from the client to the gateway, as a machine in
# use has (servers/bulk.py): a server on the gateway's port 9000, and in the client one flow
# per FLOW, KIND@ADDR (D: a download from ADDR, U: an upload to it; about 1 MB/s each, each
# reconnecting when its connection fails). ADDR: any gateway address (conf/hosts).
bulk_traffic() {
    (($# > 0)) || die "bulk_traffic KIND@ADDR..."
    local flows=() spec
    for spec in "$@"; do flows+=("$spec:9000"); done
    bulk_server
    bg_start_client bulk-client python3 "$LAB_DIR/servers/bulk.py" client --rate 1000000 "${flows[@]}"
}

# bulk_server: the server of bulk_traffic alone, on the gateway's port 9000 (every address,
# its own LAN address included); a scenario starts its clients itself (servers/bulk.py).
bulk_server() {
    bg_start bulk-server python3 "$LAB_DIR/servers/bulk.py" server --port 9000
    bg_wait_listen bulk-server tcp 0.0.0.0:9000
}

# capport_countdown SECONDS: the Captive Portal API's /countdown (conf/nginx.conf.in) gives a
# session whose seconds-remaining counts down from SECONDS, from its first request on;
# at zero it says captive (servers/capport_countdown.py, on the gateway's loopback).
capport_countdown() {
    local seconds=${1:?capport_countdown SECONDS}
    bg_start capport-countdown python3 "$LAB_DIR/servers/capport_countdown.py" --seconds "$seconds" --port 10445
    bg_wait_listen capport-countdown tcp 127.0.0.1:10445
}

# odd_server BEHAVIOUR [HOST...]: hostile or broken HTTP answers nginx cannot
# give (garbage, stall, endless, reset, ... see Tests/support/probe_server.py),
# from the shared test server on its own address (conf/hosts: odd). The
# client's tcp/80 to each HOST (default: every vendor) is DNATed to it.
odd_server() {
    local behaviour=${1:?odd_server BEHAVIOUR [HOST...]} v4 host
    shift
    read -r _ v4 _ < <(conf_rows hosts | awk '$4 == "odd"') || true
    bg_start odd python3 "$LAB_DIR/../Tests/support/probe_server.py" --bind "$v4" --port 80 \
        --all "/$behaviour" --lifetime 86400
    bg_wait_listen odd tcp "$v4:80"
    if (($# == 0)); then
        local vendors
        mapfile -t vendors < <(conf_rows hosts | awk '$4 == "vendor" {print $1}')
        set -- "${vendors[@]}"
    fi
    for host in "$@"; do
        in_gw nft add rule inet lab portal_nat iifname "$GW_IF" ip daddr "$(host_addr "$host" 4)" \
            tcp dport 80 dnat ip to "$v4:80"
    done
}

# ---- the portal and outages, as nft rules in the gateway ---------------------------

# portal MODE [--https drop|reset|open] [--allow HOST]... [--allow-tls HOST]... [--family 4|6] [--iif IF]:
# intercept the client's tcp/80 (except to the login host and each
# allow-listed HOST from conf/hosts; --allow-tls lets HOST through on tcp/443
# too) and hand it to the portal flavour MODE
# (conf/portals). HTTPS is dropped by default, as unauthenticated portals
# usually do, except to the Captive Portal API, which RFC 8908 requires to
# stay reachable. --family: only that family's traffic (the other is open);
# --iif: only what arrives on the gateway's IF (default lan0, the first
# uplink; lan1 is client_uplink2's).
portal() {
    local mode=${1:-} https=drop v4 v6 login4 login6 capport4 capport6 host fam=46 iif=$GW_IF
    shift || true
    read -r _ login4 login6 _ < <(conf_rows hosts | awk '$4 == "portal"')
    local pass4=("$login4") pass6=("$login6") tls4=() tls6=()
    while (($#)); do
        case $1 in
            --allow-tls)
                # Let the host through on :443 too (the portals that allow-list the famous check hosts).
                host=${2:?portal: --allow-tls HOST}; shift 2
                [[ -n $(host_addr "$host" 4) ]] || die "portal --allow-tls: '$host' is not in conf/hosts"
                pass4+=("$(host_addr "$host" 4)"); pass6+=("$(host_addr "$host" 6)")
                tls4+=("$(host_addr "$host" 4)"); tls6+=("$(host_addr "$host" 6)") ;;
            --https) https=${2:?portal: --https drop|reset|open}; shift 2 ;;
            --allow)
                host=${2:?portal: --allow HOST}; shift 2
                [[ -n $(host_addr "$host" 4) ]] || die "portal --allow: '$host' is not in conf/hosts"
                pass4+=("$(host_addr "$host" 4)"); pass6+=("$(host_addr "$host" 6)") ;;
            --family)
                fam=${2:-}; shift 2 || die "portal: --family 4|6"
                [[ $fam == 4 || $fam == 6 ]] || die "portal: --family 4|6, not '$fam'" ;;
            --iif) iif=${2:?portal: --iif IF}; shift 2 ;;
            *) die "portal MODE [--https drop|reset|open] [--allow HOST]... [--allow-tls HOST]... [--family 4|6] [--iif IF]" ;;
        esac
    done
    read -r _ v4 v6 < <(conf_rows portals | awk -v m="$mode" '$1 == m') || true
    [[ -n ${v4:-} ]] || die "unknown portal mode '$mode' (conf/portals: $(conf_rows portals | awk '{print $1}' | xargs))"
    portal_off
    local set4 set6 https_match="tcp dport 443"
    set4=$(IFS=,; echo "${pass4[*]}")
    set6=$(IFS=,; echo "${pass6[*]}")
    [[ $fam == *4* ]] && in_gw nft add rule inet lab portal_nat iifname "$iif" ip daddr != "{ $set4 }" tcp dport 80 dnat ip to "$v4:80"
    [[ $fam == *6* ]] && in_gw nft add rule inet lab portal_nat iifname "$iif" ip6 daddr != "{ $set6 }" tcp dport 80 dnat ip6 to "[$v6]:80"
    [[ $https == open ]] && return
    capport4=$(host_addr capport.portal.test 4)
    capport6=$(host_addr capport.portal.test 6)
    in_gw nft add rule inet lab portal_filter iifname "$iif" ip daddr "$capport4" tcp dport 443 accept
    in_gw nft add rule inet lab portal_filter iifname "$iif" ip6 daddr "$capport6" tcp dport 443 accept
    local addr
    for addr in "${tls4[@]}"; do in_gw nft add rule inet lab portal_filter iifname "$iif" ip daddr "$addr" tcp dport 443 accept; done
    for addr in "${tls6[@]}"; do in_gw nft add rule inet lab portal_filter iifname "$iif" ip6 daddr "$addr" tcp dport 443 accept; done
    [[ $fam == 4 ]] && https_match="meta nfproto ipv4 $https_match"
    [[ $fam == 6 ]] && https_match="meta nfproto ipv6 $https_match"
    block_rule "$iif" "$https_match" "$https" portal_filter
}

# transparent_proxy: every tcp/80 connection of the client goes to the proxy
# (conf/hosts: proxy.lab.test), which fetches the real page by its Host header
# and stamps Via and X-Cache on the answer. HTTPS is left alone. Needs
# web_vendors and a DNS server for the vendors (the proxy resolves through it).
transparent_proxy() {
    local v4 v6
    v4=$(host_addr proxy.lab.test 4)
    v6=$(host_addr proxy.lab.test 6)
    in_gw nft add rule inet lab portal_nat iifname "$GW_IF" ip daddr != "$v4" tcp dport 80 dnat ip to "$v4:80"
    in_gw nft add rule inet lab portal_nat iifname "$GW_IF" ip6 daddr != "$v6" tcp dport 80 dnat ip6 to "[$v6]:80"
}

# capport_announce [URI]: the network announced its Captive Portal API (DHCP
# option 114, RA option 37) and systemd-networkd recorded it, as it does, in
# the client eth0's link state file: CAPTIVE_PORTAL=URI in
# $RUN/netif/links/IFINDEX (`lab exec` points NETPROBE_NETIF_STATE_DIR there),
# written as networkd writes it: a new file renamed over the old one.
# No URI: nothing announced (the file goes).
capport_announce() {
    local ifindex file
    ifindex=$(ip -n "$CLIENT_NS" -o link show dev "$CLIENT_IF" | cut -d: -f1)
    [[ $ifindex =~ ^[0-9]+$ ]] || die "capport_announce: no ifindex for $CLIENT_IF"
    file=$RUN/netif/links/$ifindex
    if (($# == 0)); then
        rm -f "$file"
        return
    fi
    [[ $1 != *$'\n'* ]] || die "capport_announce: one line only"
    # networkd's own format; netprobe must take CAPTIVE_PORTAL= and ignore the rest.
    printf '# This is private data. Do not parse.\nADMIN_STATE=configured\nOPER_STATE=routable\nNETWORK_FILE=/etc/systemd/network/lab.network\nCAPTIVE_PORTAL=%s\n' \
        "$1" >"$file.tmp"
    mv -f "$file.tmp" "$file"
}

# ---- the machine's own resolver and the link's ---------------------------------

# own_resolver ADDR drop|refuse: the client's resolv.conf names ADDR (as a user with
# 1.1.1.1, a VPN's resolver or DNS-over-TLS configured has it) instead of the gateway.
# ADDR is a gateway address: with drop its DNS vanishes; with refuse nothing listens
# there (ICMP port unreachable at once, as openNDS answers foreign DNS). Counter
# own_dns counts what the client sends to it.
own_resolver() {
    local addr=${1:-} how=${2:-}
    [[ -n $addr && $how =~ ^(drop|refuse)$ ]] || die "own_resolver ADDR drop|refuse"
    ip -n "$GW_NS" addr add "$addr/32" dev lo
    printf 'nameserver %s\n' "$addr" >"/etc/netns/$CLIENT_NS/resolv.conf"
    count_to own_dns "$addr"
    [[ $how == drop ]] && block "ip daddr $addr meta l4proto { tcp, udp } th dport 53" drop
    return 0
}

# dns64 ADDR [PREFIX]: a real DNS64 resolver (unbound's dns64 module, PREFIX default
# 64:ff9b::/96) on the gateway address ADDR, forwarding to the lab's dnsmasq (which must
# answer ipv4only.arpa's A records: dns_vendors --host-record=ipv4only.arpa,192.0.0.170),
# and the client's resolv.conf naming it, as on an IPv6-only network with NAT64.
dns64() {
    local addr=${1:-} prefix=${2:-64:ff9b::/96}
    [[ $addr == *:* ]] || die "dns64 ADDR [PREFIX]: an IPv6 address"
    ip -n "$GW_NS" addr add "$addr/128" dev lo nodad
    cat >"$RUN/unbound.conf" <<EOF
server:
    interface: $addr
    port: 53
    do-daemonize: no
    username: ""
    chroot: ""
    directory: "$RUN"
    pidfile: ""
    use-syslog: no
    logfile: ""
    verbosity: 1
    access-control: ::/0 allow
    do-not-query-localhost: no
    qname-minimisation: no
    module-config: "dns64 iterator"
    dns64-prefix: $prefix
forward-zone:
    name: "."
    forward-addr: $GW_V6
EOF
    bg_start unbound unbound -d -c "$RUN/unbound.conf"
    bg_wait_listen unbound udp "[$addr]:53"
    printf 'nameserver %s\n' "$addr" >"/etc/netns/$CLIENT_NS/resolv.conf"
}

# stub_resolver UPSTREAM [--cold SECONDS] [--no-state]: a local stub resolver, as
# systemd-resolved runs one: servers/dns_stub.py on 127.0.0.53 in the client, forwarding
# to UPSTREAM; the client's resolv.conf is resolved's stub file (nameserver 127.0.0.53,
# options edns0 trust-ad, search .), and resolved's state says what it forwards to
# ($RUN/resolve/resolv.conf and netif/IFINDEX SERVERS=, which `lab exec` points
# NETPROBE_RESOLVED_STATE_DIR at). --cold: each name's first query is answered SECONDS
# late (a cold cache). --no-state: no state files (a stub whose upstreams are unknown).
# Called again, the stub restarts with an empty cache.
stub_resolver() {
    local upstream=${1:-} delay=0 state=1 ifindex pid i
    shift || true
    while (($#)); do
        case $1 in
            --cold) delay=${2:-}; shift 2 ;;
            --no-state) state=0; shift ;;
            *) die "stub_resolver UPSTREAM [--cold SECONDS] [--no-state]" ;;
        esac
    done
    [[ -n $upstream && $delay =~ ^[0-9.]+$ ]] || die "stub_resolver UPSTREAM [--cold SECONDS] [--no-state]"
    if [[ -f $RUN/pids/stub.pid ]]; then
        pid=$(<"$RUN/pids/stub.pid")
        pid_in_lab "$pid" && kill "$pid" 2>/dev/null
        for ((i = 0; i < 100; i++)); do pid_alive "$pid" || break; sleep 0.05; done
    fi
    bg_start_client stub python3 "$LAB_DIR/servers/dns_stub.py" --listen 127.0.0.53 --upstream "$upstream" --first-delay "$delay"
    for ((i = 0; i < 100; i++)); do
        in_client ss -lunH | awk '{print $4}' | grep -qxF 127.0.0.53:53 && break
        pid_alive "$(<"$RUN/pids/stub.pid")" || die "the stub resolver exited during start-up (log: $RUN/stub.log)"
        sleep 0.05
    done
    printf 'nameserver 127.0.0.53\noptions edns0 trust-ad\nsearch .\n' >"/etc/netns/$CLIENT_NS/resolv.conf"
    rm -rf "$RUN/resolve"
    ((state)) || return 0
    ifindex=$(ip -n "$CLIENT_NS" -o link show dev "$CLIENT_IF" | cut -d: -f1)
    mkdir -p "$RUN/resolve/netif"
    printf '# This is /run/systemd/resolve/resolv.conf managed by man:systemd-resolved(8).\nnameserver %s\nsearch .\n' \
        "$upstream" >"$RUN/resolve/resolv.conf"
    printf '# This is private data. Do not parse.\nLLMNR=yes\nMDNS=no\nSERVERS=%s\n' "$upstream" >"$RUN/resolve/netif/$ifindex"
}

# count_to NAME ADDR: a gateway counter NAME for the client's packets to ADDR (lab counters).
count_to() {
    local name=$1 addr=$2 family=ip
    [[ $addr == *:* ]] && family=ip6
    in_gw nft add counter inet lab "$name" "{ comment \"client packets to $addr\"; }"
    in_gw nft add rule inet lab count iifname "$GW_IF" $family daddr "$addr" counter name "$name"
}

# link_dns_announce networkd|dhclient|dhcpcd|networkmanager SERVER...: the network's
# resolvers for eth0, as that DHCP client records them: systemd-networkd's link state
# (DNS=, beside any CAPTIVE_PORTAL= capport_announce wrote), a dhclient lease (option
# domain-name-servers), a dhcpcd binary lease (DHCP option 6) or NetworkManager's internal
# client's lease (DNS=), each unexpired and for the client's address. lab exec shows the
# leases under /var/lib.
link_dns_announce() {
    local how=${1:-} ifindex file
    shift || true
    (($# > 0)) && [[ $how =~ ^(networkd|dhclient|dhcpcd|networkmanager)$ ]] ||
        die "link_dns_announce networkd|dhclient|dhcpcd|networkmanager SERVER..."
    case $how in
        networkd)
            ifindex=$(ip -n "$CLIENT_NS" -o link show dev "$CLIENT_IF" | cut -d: -f1)
            file=$RUN/netif/links/$ifindex
            if [[ ! -e $file ]]; then
                printf '# This is private data. Do not parse.\nADMIN_STATE=configured\nOPER_STATE=routable\n' >"$file"
            fi
            printf 'DNS=%s\n' "$*" >>"$file" ;;
        dhclient)
            mkdir -p "$RUN/leases/dhcp"
            printf 'lease {\n  interface "%s";\n  fixed-address %s;\n  option domain-name-servers %s;\n  expire 4 2099/12/31 00:00:00;\n}\n' \
                "$CLIENT_IF" "$CLIENT_V4" "$(IFS=,; echo "$*")" >"$RUN/leases/dhcp/dhclient.$CLIENT_IF.leases" ;;
        dhcpcd)
            mkdir -p "$RUN/leases/dhcpcd"
            python3 - "$RUN/leases/dhcpcd/$CLIENT_IF.lease" "$(IFS=,; echo "$*")" "$CLIENT_V4" <<'PY'
import ipaddress, sys
servers = b"".join(ipaddress.IPv4Address(a).packed for a in sys.argv[2].split(","))
# yiaddr (offset 16) is the client's address: the lease is this network's.
message = bytes(16) + ipaddress.IPv4Address(sys.argv[3]).packed + bytes(216) + bytes([99, 130, 83, 99])
message += bytes([53, 1, 5, 6, len(servers)]) + servers
message += bytes([51, 4, 0, 1, 0x51, 0x80, 255])  # lease time one day, then the end
open(sys.argv[1], "wb").write(message)
PY
            ;;
        networkmanager)
            # Its device state, as NetworkManager 1.42 writes it (lab exec shows $RUN/nm-run
            # as /run/NetworkManager); its internal lease holds the address alone.
            ifindex=$(ip -n "$CLIENT_NS" -o link show dev "$CLIENT_IF" | cut -d: -f1)
            mkdir -p "$RUN/nm-run/devices"
            printf '[device]\nmanaged=true\nconnection-uuid=7e1f0c2a-5d3b-4c8e-9f60-2a3b4c5d6e7f\nnm-owned=false\n\n[dhcp4]\ndhcp4.dhcp_lease_time=86400\ndhcp4.domain_name_servers=%s\ndhcp4.expiry=%s\ndhcp4.ip_address=%s\ndhcp4.subnet_mask=255.255.255.0\n' \
                "$*" "$(($(date +%s) + 86400))" "$CLIENT_V4" >"$RUN/nm-run/devices/$ifindex"
            lease_file "NetworkManager/internal-7e1f0c2a-5d3b-4c8e-9f60-2a3b4c5d6e7f-$CLIENT_IF.lease" --age 600 \
                "$(printf '# This is private data. Do not parse.\nADDRESS=%s\n' "$CLIENT_V4")" ;;
    esac
}

# lease_file PATH [--age SECONDS] [--pad BYTES] TEXT: a lease file as a DHCP client (or anyone
# able to write its directory) left it, at /var/lib/PATH as `lab exec` shows it, last written
# SECONDS ago (default 0). TEXT may hold newlines; --pad appends a comment line of BYTES `#`
# (a file larger than an argument may be); an empty TEXT removes the file.
lease_file() {
    local path=${1:-} age=0 pad=0 file
    shift || true
    if [[ ${1:-} == --age ]]; then age=${2:-}; shift 2; fi
    if [[ ${1:-} == --pad ]]; then pad=${2:-}; shift 2; fi
    [[ -n $path && $path != *..* && $age =~ ^[0-9]+$ && $pad =~ ^[0-9]+$ && $# == 1 ]] ||
        die "lease_file PATH [--age SECONDS] [--pad BYTES] TEXT"
    file=$RUN/leases/$path
    if [[ -z $1 ]]; then rm -f "$file"; return; fi
    mkdir -p "$(dirname "$file")"
    printf '%s' "$1" >"$file"
    if ((pad > 0)); then head -c "$pad" /dev/zero | tr '\0' '#' >>"$file"; fi
    touch -d "@$(($(date +%s) - age))" "$file"
}

# portal_off: the user logged in; the portal's interception and HTTPS block are lifted.
portal_off() {
    in_gw nft flush chain inet lab portal_nat
    in_gw nft flush chain inet lab portal_filter
}

# unblock: lift every `block` rule.
unblock() {
    in_gw nft flush chain inet lab block
}

# block MATCH drop|reset|unreachable|port-unreachable [CHAIN]: for client packets
# matching the nft expression MATCH ("all" = everything): drop silently (a black hole),
# answer with a TCP reset, or with ICMP host (or port) unreachable.
block() {
    block_rule "$GW_IF" "$@"
}

# block_rule IIF MATCH ACTION [CHAIN]: the same for what arrives on the gateway's IIF.
block_rule() {
    local iif=$1 match=$2 action=${3:-drop} chain=${4:-block} verdict
    [[ $match == all ]] && match=
    case $action in
        drop) verdict=drop ;;
        reset) verdict="meta l4proto tcp reject with tcp reset" ;;
        unreachable) verdict="reject with icmpx type host-unreachable" ;;
        port-unreachable) verdict="reject with icmpx type port-unreachable" ;;
        *) die "block MATCH drop|reset|unreachable|port-unreachable" ;;
    esac
    # shellcheck disable=SC2086 # MATCH and the verdict are nft words
    in_gw nft add rule inet lab "$chain" iifname "$iif" $match $verdict
}

# blackhole 4|6 [HOST...]: the client's packets of one family to each HOST
# from conf/hosts (default: every vendor) vanish, as on a network whose IPv6
# (or IPv4) is broken upstream. The other family, and DNS, are untouched.
blackhole() {
    local fam=${1:-} host addr addrs=()
    [[ $fam == 4 || $fam == 6 ]] || die "blackhole 4|6 [HOST...]"
    shift
    if (($# == 0)); then
        local vendors
        mapfile -t vendors < <(conf_rows hosts | awk '$4 == "vendor" {print $1}')
        set -- "${vendors[@]}"
    fi
    for host; do
        addr=$(host_addr "$host" "$fam")
        [[ -n $addr ]] || die "blackhole: '$host' is not in conf/hosts"
        addrs+=("$addr")
    done
    local set
    set=$(IFS=,; echo "${addrs[*]}")
    if [[ $fam == 4 ]]; then block "ip daddr { $set }" drop; else block "ip6 daddr { $set }" drop; fi
}

# counters_reset: zero the gateway's counters, so that the next run's
# `lab counters` (client_eth0_tx and the other link counts excepted) show
# only what that run sent.
counters_reset() {
    in_gw nft reset counters table inet lab >/dev/null
}

# ---- an explicit (forward) proxy (lib/proxy.sh) ------------------------------

# forward_proxy normal|auth|credentials|portal|down: lab/servers/forward_proxy.py
# on the gateway at $FORWARD_PROXY_V4:3128 in that mode (credentials: only
# $FORWARD_PROXY_USER:$FORWARD_PROXY_SECRET; portal: every GET redirected to
# the login page, every CONNECT refused with 403). `down`: the address is
# there and nothing listens, so connections to the proxy are refused. The proxy
# resolves the names it is asked for through the lab's DNS: the gateway
# namespace gets a resolv.conf of its own (run_teardown removes /etc/netns/GW).
forward_proxy() {
    local mode=${1:?forward_proxy normal|auth|credentials|portal|down} ready fd line
    # shellcheck source=lab/lib/proxy.sh
    [[ -n ${FORWARD_PROXY_V4:-} ]] || source "$LAB_DIR/lib/proxy.sh"
    ip -n "$GW_NS" addr add "$FORWARD_PROXY_V4/32" dev lo 2>/dev/null || true
    [[ $mode == down ]] && return 0
    mkdir -p "/etc/netns/$GW_NS"
    echo "nameserver $GW_V4" >"/etc/netns/$GW_NS/resolv.conf"
    # The proxy writes "ready PORT" into this FIFO once it listens. Opened read-write,
    # the FIFO never blocks our open, and `read -t` bounds the wait: no polling.
    ready=$RUN/forward-proxy.ready
    rm -f "$ready"
    mkfifo "$ready"
    exec {fd}<>"$ready"
    bg_start forward-proxy python3 "$LAB_DIR/servers/forward_proxy.py" --bind "$FORWARD_PROXY_V4" \
        --port "$FORWARD_PROXY_PORT" --mode "$mode" --credentials "$FORWARD_PROXY_USER:$FORWARD_PROXY_SECRET" \
        --login-url "$FORWARD_PROXY_LOGIN_URL" --ready "$ready" --lifetime 86400
    line=
    read -r -t 10 -u "$fd" line || true
    exec {fd}<&-
    rm -f "$ready"
    if [[ $line != "ready $FORWARD_PROXY_PORT" ]]; then
        sed 's/^/    /' "$RUN/forward-proxy.log" >&2 || true
        die "forward proxy did not start (log above)"
    fi
}

# direct_web_rejected: the client's own tcp/80 and tcp/443 are answered with a
# TCP reset, as on a CI runner or corporate host whose only way out is the
# proxy. Its connections to the proxy (port 3128) pass.
direct_web_rejected() {
    block "tcp dport { 80, 443 }" reset
}

# tls_mitm: every tcp/443 connection from the client, on every uplink, is answered by a
# TLS server whose certificate names every lab host but is signed by a CA the client does
# not trust (an intercepting middlebox). The lab's own CA and servers stay as they are.
tls_mitm() {
    local t=$RUN/tls-mitm iif
    mkdir -p "$t"
    tls_ca_and_server "$t" "netprobe lab MITM CA $LAB_ID" "$RUN/tls/server.ext"
    bg_start mitm python3 "$LAB_DIR/../Tests/support/probe_server.py" --bind :: --port 10445 \
        --tls "$t/server.crt" "$t/server.key" --lifetime 86400
    bg_wait_listen mitm tcp "*:10445"  # a dual-stack socket
    for iif in "$GW_IF" "$GW_IF2"; do
        in_gw ip link show "$iif" >/dev/null 2>&1 || continue
        in_gw nft add rule inet lab relay iifname "$iif" tcp dport 443 redirect to :10445
    done
}
