# shellcheck shell=bash
# The base every scenario starts from: two namespaces joined by a veth pair,
# the gateway's addresses, its nft table, the lab CA, and the client's
# /etc/netns files. Sourced by lab/lab; scenario blocks are in blocks.sh.

base_up() {
    ip netns add "$CLIENT_NS"
    ip netns add "$GW_NS"
    # Before the veth exists, so both ends inherit them: no DAD delay, no RAs,
    # no ICMP rate limit in the gateway (a "port unreachable" for every query),
    # and IPv6 off on the client link until client_ipv6 turns it on.
    in_client sysctl -qw net.ipv6.conf.default.accept_dad=0 net.ipv6.conf.default.accept_ra=0 \
        net.ipv6.conf.default.disable_ipv6=1
    in_gw sysctl -qw net.ipv6.conf.default.accept_dad=0 net.ipv6.conf.default.accept_ra=0 \
        net.ipv4.icmp_ratelimit=0 net.ipv4.icmp_ratemask=0 net.ipv6.icmp.ratelimit=0
    ip -n "$CLIENT_NS" link add "$CLIENT_IF" type veth peer name "$GW_IF" netns "$GW_NS"
    ip -n "$CLIENT_NS" link set lo up
    ip -n "$GW_NS" link set lo up
    ip -n "$GW_NS" addr add "$GW_V4/$LAN_V4_PREFIX" dev "$GW_IF"
    ip -n "$GW_NS" addr add "$GW_V6/$LAN_V6_PREFIX" dev "$GW_IF" nodad
    local name v4 v6 rest
    while read -r name v4 v6 rest; do
        ip -n "$GW_NS" addr add "$v4/32" dev lo
        ip -n "$GW_NS" addr add "$v6/128" dev lo nodad
    done < <(conf_rows hosts; conf_rows portals)
    ip -n "$GW_NS" addr add "$HIJACK_V4/32" dev lo
    ip -n "$GW_NS" link set "$GW_IF" up
    ip -n "$CLIENT_NS" link set "$CLIENT_IF" up
    nft_base
    tls_make
    netns_etc
    # systemd-networkd's per-link state for the client (capport_announce
    # writes into it); `lab exec` points netprobe here, never at the host's.
    mkdir -p "$RUN/netif/links"
}

# Rows of a conf/ table without comments or blank lines.
conf_rows() { grep -vE '^[[:space:]]*(#|$)' "$LAB_DIR/conf/$1"; }

# The gateway's nft table. Counters see every tcp/udp packet from the client
# (before any NAT: original ports) so a scenario can prove what was sent.
# Chains: portal_nat + portal_filter (the portal: `portal`, `portal_off`),
# relay (slow_servers), block (`block`, `unblock`); each can be flushed alone.
# Every rule matches iifname lan0: the gateway's own traffic is never touched.
nft_base() {
    in_gw nft -f - <<EOF
table inet lab {
    counter client_packets { comment "every tcp/udp packet from the client" }
    counter client_dns { comment "tcp/udp packets to port 53" }
    counter client_http { comment "tcp packets to port 80" }
    counter client_https { comment "tcp packets to port 443" }
    counter client_syns { comment "tcp connection attempts (SYN)" }
    counter client_capport { comment "tcp/udp packets to the Captive Portal API host" }
    chain count {
        type filter hook prerouting priority raw; policy accept;
        iifname "$GW_IF" meta l4proto { tcp, udp } counter name "client_packets"
        iifname "$GW_IF" meta l4proto { tcp, udp } th dport 53 counter name "client_dns"
        iifname "$GW_IF" tcp dport 80 counter name "client_http"
        iifname "$GW_IF" tcp dport 443 counter name "client_https"
        iifname "$GW_IF" tcp flags & (syn | ack) == syn counter name "client_syns"
        iifname "$GW_IF" ip daddr $(host_addr capport.portal.test 4) meta l4proto { tcp, udp } counter name "client_capport"
        iifname "$GW_IF" ip6 daddr $(host_addr capport.portal.test 6) meta l4proto { tcp, udp } counter name "client_capport"
    }
    chain portal_nat {
        type nat hook prerouting priority dstnat; policy accept;
    }
    chain portal_filter {
        type filter hook input priority filter; policy accept;
    }
    chain relay {
        type nat hook prerouting priority dstnat + 10; policy accept;
    }
    chain block {
        type filter hook input priority filter + 10; policy accept;
    }
}
EOF
}

# Lab CA and one server certificate for every name in conf/hosts. Trusted only
# inside the client namespace (netns_etc puts the CA alone in its /etc/ssl).
tls_make() {
    local t=$RUN/tls san name rest
    mkdir -p "$t"
    san=$(conf_rows hosts | while read -r name rest; do printf 'DNS:%s,' "$name"; done)
    printf 'subjectAltName=%s\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n' "${san%,}" >"$t/server.ext"
    tls_ca_and_server "$t" "netprobe lab CA $LAB_ID" "$t/server.ext"
}

# tls_ca_and_server DIR CA_NAME EXTFILE: a new CA (DIR/ca.crt, ca.key) and a server
# certificate it signs (DIR/server.crt, server.key) with the extensions in EXTFILE.
tls_ca_and_server() {
    local t=$1 name=$2 ext=$3
    openssl req -x509 -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:P-256 \
        -keyout "$t/ca.key" -out "$t/ca.crt" -days 2 -subj "/CN=$name" \
        -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign \
        2>"$t/openssl.log"
    openssl req -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:P-256 \
        -keyout "$t/server.key" -out "$t/server.csr" -subj "/CN=netprobe lab server" 2>>"$t/openssl.log"
    openssl x509 -req -in "$t/server.csr" -CA "$t/ca.crt" -CAkey "$t/ca.key" -CAcreateserial \
        -days 2 -extfile "$ext" -out "$t/server.crt" 2>>"$t/openssl.log"
}

# Files `ip netns exec` bind-mounts over /etc/... in the client namespace: an
# empty resolv.conf (client_ipv4/6 add nameservers), a minimal hosts file and
# an /etc/ssl whose only trusted CA is the lab's, an empty /etc/netprobe.
netns_etc() {
    local e=/etc/netns/$CLIENT_NS
    mkdir -p "$e/ssl/certs"
    : >"$e/resolv.conf"
    printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"$e/hosts"
    cp "$RUN/tls/ca.crt" "$e/ssl/certs/ca-certificates.crt"
    # Hash links, as update-ca-certificates makes them: netprobe then trusts the directory
    # (CAPATH), not the bundle, as on a real Debian system.
    openssl rehash "$e/ssl/certs" 2>>"$RUN/tls/openssl.log"
    [[ -f /etc/ssl/openssl.cnf ]] && cp /etc/ssl/openssl.cnf "$e/ssl/openssl.cnf"
    # Hide a machine-wide probes.json, so netprobe uses its built-in default set.
    [[ -d /etc/netprobe ]] && mkdir -p "$e/netprobe"
    return 0
}

# Address of a name in conf/hosts: host_addr NAME 4|6
host_addr() {
    conf_rows hosts | awk -v n="$1" -v f="$2" '$1 == n { print (f == 6 ? $3 : $2) }'
}
