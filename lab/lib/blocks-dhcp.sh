# shellcheck shell=bash disable=SC2054 # dnsmasq option values are comma lists, one word each
# Building blocks for real DHCP: a real server on the gateway (dnsmasq, DHCP only) and the
# real clients people run (ISC dhclient, dhcpcd) configuring the client's eth0 from it.
# Sourced by lab/lab after blocks.sh; `lab do` may call them on a running lab.
#
# The clients never touch the host: each runs in the client namespace inside a mount
# namespace of its own (`ip netns exec` gives one, a slave of the host's) where /var/lib and
# /run are empty tmpfs and the lease directory is the lab's own $RUN/leases/DIR, bind-mounted
# where the program writes it. `lab exec` copies $RUN/leases into its /var/lib, so netprobe
# reads the very files the programs wrote. Neither client's hook script runs: ours
# (servers/dhclient-script) only configures the address and route, dhcpcd's are off, so no
# resolv.conf is ever rewritten.

# The pool the lab's DHCP server leases from (the static CLIENT_V4 lies outside it).
DHCP_POOL_START=198.51.100.100
DHCP_POOL_END=198.51.100.199

# dhcp_server [--dns ADDR] [--capport URI] [--no-option-114] [--domain NAME] [--v6]: a real dnsmasq
# serving DHCPv4 on the gateway's lan0 (no DNS: port=0, beside the lab's DNS dnsmasq), leasing
# $DHCP_POOL_START-$DHCP_POOL_END for an hour with router $GW_V4, option 6 ADDR (default
# $GW_V4), with --domain option 15 NAME and, with --capport, option 114 URI, to clients that
# ask for them (as dnsmasq does). On network B (lib/blocks-networks.sh) it is B's own server:
# B's router, pool and mask, its own process, log and lease file (dhcp-server-b).
# It answers DHCPINFORM (RFC 2131 3.4) from any lab address in 198.51.100.0/24 with the same
# options. --no-option-114: option 114 only in answers to messages that name no address to
# lease (DHCPINFORM; also a DHCPOFFER, which no client records), never in the DHCPACK of a
# lease: the network announces it, and the client's lease has lost it. Its log (every message,
# --log-dhcp) is $RUN/dhcp-server.log; `lab counters` has dhcp_inform, the DHCPINFORMs seen.
# --v6: DHCPv6 too, stateful (router advertisements with the M flag, --enable-ra), leasing
# 2001:db8:1::100-1ff with option 23 ($GW_V6) and, with --capport, option 103 URI.
dhcp_server() {
    local dns=$GW_V4 capport='' no114=0 v6=0 domain='' args=() usage
    usage="dhcp_server [--dns ADDR] [--capport URI] [--no-option-114] [--domain NAME] [--v6]"
    while (($#)); do
        case $1 in
            --dns) dns=${2:?dhcp_server: --dns ADDR}; shift 2 ;;
            --capport) capport=${2:?dhcp_server: --capport URI}; shift 2 ;;
            --no-option-114) no114=1; shift ;;
            --domain) domain=${2:?dhcp_server: --domain NAME}; shift 2 ;;
            --v6) v6=1; shift ;;
            *) die "$usage" ;;
        esac
    done
    [[ $capport != *[\",$'\n']* ]] || die "dhcp_server: --capport URI without quotes, commas or newlines"
    ((no114 == 0)) || [[ -n $capport ]] || die "dhcp_server: --no-option-114 needs --capport URI"
    [[ -z $domain || $domain =~ ^[a-z0-9.-]+$ ]] || die "dhcp_server: --domain NAME"
    # The network lan0 is on: the lab's own (network A's addressing) unless `network B`.
    local name=dhcp-server router=$GW_V4 range="$DHCP_POOL_START,$DHCP_POOL_END,255.255.255.0"
    if [[ $(network_current) == B ]]; then
        ((v6 == 0)) || die "dhcp_server: --v6 only on network A"
        name=dhcp-server-b router=$NETWORK_B_GW range="$NETWORK_B_POOL_START,$NETWORK_B_POOL_END,$NETWORK_B_MASK"
    fi
    args=(--dhcp-option=option:router,"$router" --dhcp-option=option:dns-server,"$dns")
    [[ -n $domain ]] && args+=(--dhcp-option=option:domain-name,"$domain")
    if [[ -n $capport ]]; then
        if ((no114)); then
            # A lease is taken by a DHCPREQUEST naming its address (option 50, RFC 2131 4.3.2);
            # a DHCPINFORM never names one. (dnsmasq cannot match option 53's value.)
            args+=(--dhcp-match=set:leasing,50 --dhcp-option=tag:!leasing,114,"$capport")
        else
            args+=(--dhcp-option=114,"$capport")
        fi
    fi
    if ((v6)); then
        args+=(--enable-ra --dhcp-range=2001:db8:1::100,2001:db8:1::1ff,64,1h --dhcp-option=option6:dns-server,"[$GW_V6]")
        # Option 103 whether asked or not: dhcpcd 9.4 does not know it by name.
        [[ -n $capport ]] && args+=(--dhcp-option-force=option6:103,"$capport")
    fi
    bg_start "$name" dnsmasq --keep-in-foreground --conf-file=/dev/null --port=0 --no-resolv --no-hosts \
        --interface="$GW_IF" --bind-interfaces --dhcp-authoritative \
        --dhcp-range="$range,1h" \
        --dhcp-leasefile="$RUN/$name.leases" --pid-file="$RUN/$name.pid" \
        --user=root --group=root --log-facility=- --log-dhcp "${args[@]}"
    dhcp_server_wait "$name"
    # One counter for every server of the run (network A's and B's): made once.
    in_gw nft list counter inet lab dhcp_inform >/dev/null 2>&1 && return 0
    in_gw nft add counter inet lab dhcp_inform '{ comment "DHCPINFORM messages from the client" }'
    # The DHCP message type option (53, length 1, value 8) right after the magic cookie is
    # where every client puts it; udp payload offset 240 bytes = 1920 bits.
    in_gw nft add rule inet lab count iifname "$GW_IF" udp dport 67 @th,1984,24 0x350108 counter name dhcp_inform
}

# dhcp_server_wait [NAME]: wait (bounded) until the DHCP server NAME (default dhcp-server)
# listens on port 67.
dhcp_server_wait() {
    local i pid name=${1:-dhcp-server}
    pid=$(<"$RUN/pids/$name.pid")
    for ((i = 0; i < 100; i++)); do
        if ! pid_alive "$pid"; then
            sed 's/^/    /' "$RUN/$name.log" >&2 || true
            die "$name exited during start-up (log above)"
        fi
        in_gw ss -lunH | awk '{print $4}' | grep -qE ':67$' && return 0
        sleep 0.05
    done
    die "$name did not listen on udp 67 within 5 s (log: $RUN/$name.log)"
}

# dhcp_server_stop: the running DHCP server (network A's or B's) ends, by PID; returns once
# it is gone, so another may bind port 67.
dhcp_server_stop() {
    local name pid i
    for name in dhcp-server dhcp-server-b; do
        [[ -f $RUN/pids/$name.pid ]] || continue
        pid=$(<"$RUN/pids/$name.pid")
        if pid_in_lab "$pid"; then
            kill -TERM "$pid" 2>/dev/null || true
            for ((i = 0; i < 100; i++)); do pid_alive "$pid" || break; sleep 0.05; done
            pid_alive "$pid" && die "$name did not end within 5 s"
        fi
        rm -f "$RUN/pids/$name.pid"
    done
}

# dhcp_rogue ANSWER...: a station on the LAN (servers/dhcp_rogue.py on lan0) hears every
# DHCPINFORM and answers it with each ANSWER in turn (the script's --answer: from=, id=, xid=,
# chaddr=, uri=, dns=, ...), as any neighbour on open Wi-Fi could. The DHCP server
# (dhcp_server, which leased the address) no longer answers DHCPINFORMs itself: they are
# dropped before it (after `lab counters` counted them), so an ANSWER sent from the server's
# address with everything right stands in for its answer, in the order given: after the
# forged ones, as a real server's answer that comes later than a neighbour's.
dhcp_rogue() {
    (($#)) || die "dhcp_rogue ANSWER..."
    local args=() answer i pid
    for answer in "$@"; do args+=(--answer "$answer"); done
    block "udp dport 67 @th,1984,24 0x350108"
    bg_start dhcp-rogue python3 "$LAB_DIR/servers/dhcp_rogue.py" --interface "$GW_IF" --server "$GW_V4" "${args[@]}"
    pid=$(<"$RUN/pids/dhcp-rogue.pid")
    for ((i = 0; i < 100; i++)); do
        grep -qx ready "$RUN/dhcp-rogue.log" 2>/dev/null && return 0
        if ! pid_alive "$pid"; then
            sed 's/^/    /' "$RUN/dhcp-rogue.log" >&2 || true
            die "dhcp-rogue exited during start-up (log above)"
        fi
        sleep 0.05
    done
    die "dhcp-rogue did not start within 5 s (log: $RUN/dhcp-rogue.log)"
}

# dhcp_client dhclient|dhcpcd [--no-request-114] [--v6]: the real ISC dhclient or dhcpcd
# configures eth0 (no static address) from dhcp_server, asking for options 1, 3, 6 and 114
# (--no-request-114: not 114, as a client that does not know it); returns once eth0 has its
# leased address and the lease file is written (bounded). Leases: dhclient's
# $RUN/leases/dhcp/dhclient.eth0.leases (its -lf), dhcpcd's $RUN/leases/dhcpcd/ (mounted
# over its /var/lib/dhcpcd); `lab exec` shows both under /var/lib. Logs: $RUN/NAME.log.
# --v6 (dhcpcd only, with dhcp_server --v6): DHCPv6 too, on eth0 with IPv6 on; returns once
# its eth0.lease6 is written as well. --resolv (dhcpcd only): it asks for option 15 too, and
# its script (servers/dhcpcd-resolv) writes the client's resolv.conf from each lease (search
# domain, nameservers), as a distribution's resolv.conf hook does, before it configures the
# address and route, and empties it when the lease goes (no carrier, expiry): the lab's two
# networks (lib/blocks-networks.sh).
dhcp_client() {
    local how=${1:-} request114=1 v6=0 resolv=0 conf usage="dhcp_client dhclient|dhcpcd [--no-request-114] [--v6] [--resolv]"
    shift || true
    [[ $how =~ ^(dhclient|dhcpcd)$ ]] || die "$usage"
    if [[ ${1:-} == --no-request-114 ]]; then request114=0; shift; fi
    if [[ ${1:-} == --v6 && $how == dhcpcd ]]; then v6=1; shift; fi
    if [[ ${1:-} == --resolv && $how == dhcpcd ]]; then resolv=1; shift; fi
    (($# == 0)) || die "$usage"
    command -v "$how" >/dev/null 2>&1 || die "dhcp_client: $how is not installed (scripts/install-deps test)"
    mkdir -p "$RUN/leases/dhcp" "$RUN/leases/dhcpcd"
    conf=$RUN/$how.conf
    case $how in
        dhclient)
            # default-url is ISC dhclient's own name for option 114.
            printf 'request subnet-mask, broadcast-address, routers, domain-name-servers%s;\n' \
                "$( ((request114)) && echo ', default-url')" >"$conf"
            dhcp_client_start dhclient dhclient -d -4 -v -cf "$conf" -lf "$RUN/leases/dhcp/dhclient.$CLIENT_IF.leases" \
                -pf /run/dhclient.pid -sf "$LAB_DIR/servers/dhclient-script" "$CLIENT_IF"
            ;;
        dhcpcd)
            {
                if ((resolv)); then
                    echo "script $LAB_DIR/servers/dhcpcd-resolv"
                    echo 'noconfigure'
                    echo 'option domain_name'
                else
                    echo 'script /bin/true'
                    echo 'nooption domain_name'
                fi
                echo 'noipv4ll'
                echo 'noarp'
                echo 'option subnet_mask, routers, domain_name_servers'
                ((request114)) && printf 'define 114 string captive_portal_uri\noption captive_portal_uri\n'
                echo 'nooption host_name, domain_search, ntp_servers'
            } >"$conf"
            local family=(-4)
            if ((v6)); then
                family=()
                in_client sysctl -qw "net.ipv6.conf.$CLIENT_IF.disable_ipv6=0"
                printf 'ipv6rs\noption dhcp6_name_servers\n' >>"$conf"
            fi
            dhcp_client_start dhcpcd dhcpcd -B "${family[@]}" -d -f "$conf" "$CLIENT_IF"
            ;;
    esac
    dhcp_client_wait "$how" "$( ((v6)) && echo "$RUN/leases/dhcpcd/$CLIENT_IF.lease6")"
}

# dhcp_client_start NAME CMD...: CMD in the client namespace with private /var/lib and /run
# (the lease directories bind-mounted from $RUN/leases), detached, its PID in $RUN/pids.
dhcp_client_start() {
    local name=$1; shift
    # shellcheck disable=SC2016 # the script is for sh, its arguments: LEASES -- CMD ARGS
    bg_start_client "$name" sh -c 'leases=$1; shift
        mount -t tmpfs -o size=1m,mode=0755 lab-dhcp /var/lib || exit 70
        mount -t tmpfs -o size=1m,mode=0755 lab-dhcp /run || exit 70
        mkdir -p /var/lib/dhcp /var/lib/dhcpcd || exit 70
        mount --bind "$leases/dhcp" /var/lib/dhcp || exit 70
        mount --bind "$leases/dhcpcd" /var/lib/dhcpcd || exit 70
        exec "$@"' lab-dhcp "$RUN/leases" "$@"
}

# dhcp_client_wait NAME [FILE]: until eth0 holds an address from the pool and NAME's lease
# file exists, and FILE too when given (bounded: 15 s, dhcpcd's first DISCOVER may wait a second).
dhcp_client_wait() {
    local name=$1 also=${2:-} pid i
    pid=$(<"$RUN/pids/$name.pid")
    for ((i = 0; i < 300; i++)); do
        if ! pid_alive "$pid"; then
            sed 's/^/    /' "$RUN/$name.log" >&2 || true
            die "$name exited (log above)"
        fi
        if [[ -n $(dhcp_client_address) ]] && compgen -G "$RUN/leases/dhcp*/*.lease*" >/dev/null &&
            [[ -z $also || -s $also ]]; then
            # The default route comes with the address (dhclient-script) or just after it.
            ip -n "$CLIENT_NS" -4 route show default | grep -q . && return 0
        fi
        sleep 0.05
    done
    die "$name did not configure $CLIENT_IF within 15 s (log: $RUN/$name.log)"
}

# The IPv4 address eth0 got from the DHCP server of the network it is on (network B's pool on
# network B, lib/blocks-networks.sh), if any.
dhcp_client_address() {
    local pool='^198\.51\.100\.1[0-9][0-9]$'
    [[ $(network_current) == B ]] && pool=$NETWORK_B_POOL_PATTERN
    ip -n "$CLIENT_NS" -4 -o addr show dev "$CLIENT_IF" | awk '{print $4}' | cut -d/ -f1 |
        grep -E "$pool" | head -n 1
}
