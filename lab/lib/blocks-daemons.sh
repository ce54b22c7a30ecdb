# shellcheck shell=bash
# Building blocks for the daemons that configure a link and its DNS on the machines people
# run: the real NetworkManager (its internal DHCP client), systemd-networkd and
# systemd-resolved, each configuring the client's eth0 from the lab's real DHCP server
# (dhcp_server, blocks-dhcp.sh) and talking to each other on a private system bus.
# Sourced by lab/lab after blocks.sh.
#
# None touches the host: each runs in the client namespace inside a mount namespace of its
# own (`ip netns exec` gives one, a slave of the host's) where /run, its state and its
# configuration directories are empty tmpfs, and the state netprobe reads is the lab's own:
#   the bus        $RUN/bus/system_bus_socket  (lab exec sets DBUS_SYSTEM_BUS_ADDRESS to it)
#   NetworkManager $RUN/nm-run  -> /run/NetworkManager   (lab exec mounts it there)
#   networkd       $RUN/netif   -> /run/systemd/netif    (lab exec: NETPROBE_NETIF_STATE_DIR)
#   resolved       $RUN/resolve -> /run/systemd/resolve  (lab exec: NETPROBE_RESOLVED_STATE_DIR)
# The host's /etc/resolv.conf, /run/NetworkManager, /var/lib/NetworkManager and
# /run/systemd are never written. systemd-resolved is not installed: scripts/install-deps test
# unpacks its Debian package into .build/systemd-resolved (its postinst would replace the
# host's /etc/resolv.conf).

RESOLVED_ROOT=${RESOLVED_ROOT:-$REPO_DIR/.build/systemd-resolved}

# lab_bus: a private system bus (dbus-daemon) in the client namespace, at
# $RUN/bus/system_bus_socket, letting every client own any name and call anything (networkd
# and resolved drop to users of their own). Started once; returns when the socket exists (bounded).
lab_bus() {
    local i
    [[ -S $RUN/bus/system_bus_socket ]] && return 0
    command -v dbus-daemon >/dev/null 2>&1 || die "lab_bus: dbus-daemon is not installed (scripts/install-deps test)"
    mkdir -p "$RUN/bus"
    cat >"$RUN/bus/system.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$RUN/bus/system_bus_socket</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
EOF
    lab_users
    # shellcheck disable=SC2016 # the script is for sh, its arguments: USERS -- CMD ARGS
    bg_start_client bus sh -c 'mount --bind "$1/passwd" /etc/passwd && mount --bind "$1/group" /etc/group || exit 70
        shift; exec "$@"' lab-bus "$RUN/users" dbus-daemon --config-file="$RUN/bus/system.conf" --nofork --nopidfile
    for ((i = 0; i < 100; i++)); do
        [[ -S $RUN/bus/system_bus_socket ]] && return 0
        pid_alive "$(<"$RUN/pids/bus.pid")" || die "dbus-daemon exited (log: $RUN/bus.log)"
        sleep 0.05
    done
    die "the lab's bus did not start within 5 s (log: $RUN/bus.log)"
}

# lab_users: copies of passwd and group ($RUN/users) that also have systemd-resolve, the user
# resolved drops its privileges to (its package's sysusers would create it; it is not
# installed): for the eyes of resolved and of the bus, which must know the users it admits.
lab_users() {
    local uid
    [[ -f $RUN/users/passwd ]] && return 0
    mkdir -p "$RUN/users"
    uid=$(awk -F: '$1 == "systemd-resolve" { print $3 }' /etc/passwd)
    if [[ -z $uid ]]; then
        for uid in 991 992 993 994 995 996 997 998; do
            getent passwd "$uid" >/dev/null || getent group "$uid" >/dev/null || break
        done
    fi
    { cat /etc/passwd; grep -q '^systemd-resolve:' /etc/passwd || echo "systemd-resolve:x:$uid:$uid::/run/systemd/resolve:/usr/sbin/nologin"; } >"$RUN/users/passwd"
    { cat /etc/group; grep -q '^systemd-resolve:' /etc/group || echo "systemd-resolve:x:$uid:"; } >"$RUN/users/group"
}

# daemon_start NAME SETUP CMD...: CMD in the client namespace on the lab's bus, in a mount
# namespace where /run is an empty tmpfs and /sys read-only (no udev here: NetworkManager
# then takes devices as the kernel shows them), after the shell lines SETUP (mounts of the
# daemon's own directories), detached, its PID in $RUN/pids.
daemon_start() {
    local name=$1 setup=$2; shift 2
    # shellcheck disable=SC2016 # the script is for sh, its arguments: SETUP -- CMD ARGS
    bg_start_client "$name" env DBUS_SYSTEM_BUS_ADDRESS="unix:path=$RUN/bus/system_bus_socket" sh -c '
        mount -t tmpfs -o size=4m,mode=0755 lab-daemon /run || exit 70
        mount -o remount,ro,bind /sys || exit 70
        eval "$1" || exit 70
        shift
        exec "$@"' "lab-$name" "$setup" "$@"
}

# nm_client [--dns none|systemd-resolved]: the real NetworkManager, its internal DHCP client,
# configures eth0 from dhcp_server (one keyfile connection, DHCPv4, IPv6 off). --dns: its DNS
# mode (default none: the resolv.conf the scenario wrote stays, as with a resolver the user
# set by hand; systemd-resolved: it hands the link's servers to resolved over the bus).
# rc-manager=unmanaged: it never writes resolv.conf. Its /run/NetworkManager is $RUN/nm-run.
# Returns once eth0 holds a leased address and a default route (bounded).
nm_client() {
    local dns=none
    if [[ ${1:-} == --dns ]]; then dns=${2:-}; shift 2; fi
    [[ $dns =~ ^(none|systemd-resolved)$ && $# == 0 ]] || die "nm_client [--dns none|systemd-resolved]"
    command -v NetworkManager >/dev/null 2>&1 || die "nm_client: NetworkManager is not installed (scripts/install-deps test)"
    lab_bus
    mkdir -p "$RUN/nm-run" "$RUN/nm/connections"
    cat >"$RUN/nm/NetworkManager.conf" <<EOF
[main]
plugins=keyfile
dhcp=internal
dns=$dns
rc-manager=unmanaged
auth-polkit=false
[keyfile]
path=$RUN/nm/connections
[device-lab]
match-device=interface-name:$CLIENT_IF
managed=1
EOF
    cat >"$RUN/nm/connections/lab.nmconnection" <<EOF
[connection]
id=lab
uuid=7e1f0c2a-5d3b-4c8e-9f60-2a3b4c5d6e7f
type=ethernet
interface-name=$CLIENT_IF
[ipv4]
method=auto
[ipv6]
method=ignore
EOF
    chmod 0600 "$RUN/nm/connections/lab.nmconnection"
    daemon_start nm "mkdir -p /run/NetworkManager && mount --bind '$RUN/nm-run' /run/NetworkManager &&
        mount -t tmpfs -o size=1m,mode=0755 lab-nm /var/lib/NetworkManager &&
        mount -t tmpfs -o size=1m,mode=0755 lab-nm /etc/NetworkManager" \
        NetworkManager --no-daemon --config="$RUN/nm/NetworkManager.conf" --log-level=INFO
    daemon_wait_lease nm
}

# networkd_client: the real systemd-networkd configures eth0 by DHCPv4 from dhcp_server (one
# .network file; it hands the link's servers to resolved over the bus when resolved runs).
# Its /run/systemd/netif is $RUN/netif. Returns once eth0 holds a leased address (bounded).
networkd_client() {
    local networkd=/usr/lib/systemd/systemd-networkd
    [[ -x $networkd ]] || die "networkd_client: $networkd is not installed (systemd)"
    lab_bus
    mkdir -p "$RUN/networkd" "$RUN/netif/links" "$RUN/netif/leases" "$RUN/netif/lldp"
    # networkd drops its privileges to systemd-network (the systemd package's user).
    chown -R systemd-network:systemd-network "$RUN/netif"
    cat >"$RUN/networkd/50-lab.network" <<EOF
[Match]
Name=$CLIENT_IF
[Network]
DHCP=ipv4
IPv6AcceptRA=no
LinkLocalAddressing=no
[DHCPv4]
UseDNS=yes
EOF
    daemon_start networkd "mkdir -p /run/systemd/netif /run/systemd/network &&
        mount --bind '$RUN/netif' /run/systemd/netif && mount --bind '$RUN/networkd' /run/systemd/network &&
        mount -t tmpfs -o size=1m,mode=0755 lab-networkd /etc/systemd/network" \
        env SYSTEMD_LOG_LEVEL=info "$networkd"
    daemon_wait_lease networkd
}

# resolved [--dot yes|opportunistic|no]: the real systemd-resolved (from its unpacked Debian
# package) as the client's stub on 127.0.0.53, with DNSOverTLS as given (default no); the
# client's resolv.conf then names the stub. Start it before the client that feeds it
# (NetworkManager over the bus; networkd through its state files, which resolved watches).
# Its /run/systemd/resolve is $RUN/resolve. Returns once the stub listens (bounded).
resolved() {
    local dot=no i binary=$RESOLVED_ROOT/lib/systemd/systemd-resolved
    if [[ ${1:-} == --dot ]]; then dot=${2:-}; shift 2; fi
    [[ $dot =~ ^(yes|opportunistic|no)$ && $# == 0 ]] || die "resolved [--dot yes|opportunistic|no]"
    [[ -x $binary ]] || die "resolved: $binary missing (scripts/install-deps test unpacks systemd-resolved there)"
    lab_bus
    rm -rf "$RUN/resolve"
    mkdir -p "$RUN/resolve" "$RUN/resolved"
    printf '[Resolve]\nDNSOverTLS=%s\nDNSSEC=no\nLLMNR=no\nMulticastDNS=no\nFallbackDNS=\n' "$dot" >"$RUN/resolved/lab.conf"
    chown systemd-resolve:systemd-resolve "$RUN/resolve" 2>/dev/null ||
        chown "$(awk -F: '$1 == "systemd-resolve" { print $3 ":" $4 }' "$RUN/users/passwd")" "$RUN/resolve"
    # resolved learns networkd's links from networkd's state (sd-network): it sees $RUN/netif.
    mkdir -p "$RUN/netif"
    daemon_start resolved "mkdir -p /run/systemd/resolve /run/systemd/resolved.conf.d /run/systemd/netif &&
        mount --bind '$RUN/netif' /run/systemd/netif &&
        mount --bind '$RUN/users/passwd' /etc/passwd && mount --bind '$RUN/users/group' /etc/group &&
        mount --bind '$RUN/resolve' /run/systemd/resolve &&
        cp '$RUN/resolved/lab.conf' /run/systemd/resolved.conf.d/lab.conf" \
        env SYSTEMD_LOG_LEVEL=debug "$binary"
    for ((i = 0; i < 100; i++)); do
        in_client ss -lunH | awk '{print $4}' | grep -qxF 127.0.0.53%lo:53 && break
        in_client ss -lunH | awk '{print $4}' | grep -qxF 127.0.0.53:53 && break
        pid_alive "$(<"$RUN/pids/resolved.pid")" || die "systemd-resolved exited (log: $RUN/resolved.log)"
        sleep 0.05
    done
    ((i < 100)) || die "systemd-resolved's stub did not listen within 5 s (log: $RUN/resolved.log)"
    printf 'nameserver 127.0.0.53\noptions edns0 trust-ad\nsearch .\n' >"/etc/netns/$CLIENT_NS/resolv.conf"
}

# daemon_freeze NAME: the background process NAME (bus, nm, resolved, networkd) stops
# (SIGSTOP) and never answers again, though it still holds its name and sockets: the kernel
# still completes connections into a stopped dbus-daemon's socket (dbus.socket while the
# broker starts at boot, or a wedged broker), and a stopped NetworkManager still owns its
# name on the bus. Teardown continues it to end it.
daemon_freeze() {
    local name=${1:?daemon_freeze NAME} pid
    [[ -f $RUN/pids/$name.pid ]] || die "daemon_freeze: no $name running"
    pid=$(<"$RUN/pids/$name.pid")
    pid_in_lab "$pid" || die "daemon_freeze: $name ($pid) is not the lab's"
    kill -STOP "$pid"
}

# daemon_wait_lease NAME: until eth0 holds an address from the DHCP pool and a default route
# (bounded: 20 s; NetworkManager waits for carrier and then DHCP).
daemon_wait_lease() {
    local name=$1 pid i
    pid=$(<"$RUN/pids/$name.pid")
    for ((i = 0; i < 400; i++)); do
        pid_alive "$pid" || { sed 's/^/    /' "$RUN/$name.log" | tail -20 >&2; die "$name exited (log above)"; }
        if [[ -n $(dhcp_client_address) ]] && ip -n "$CLIENT_NS" -4 route show default | grep -q .; then
            return 0
        fi
        sleep 0.05
    done
    die "$name did not configure $CLIENT_IF within 20 s (log: $RUN/$name.log)"
}

# unbound_stub UPSTREAM: the real unbound as the machine's own loopback resolver on
# 127.0.0.1, forwarding everything to UPSTREAM over DNS over TLS only (port 853), as a user
# sets up unbound, stubby or dnscrypt-proxy for private DNS; the client's resolv.conf then
# names 127.0.0.1. No DNSSEC validation, no root hints, no chroot, no remote control: it needs
# nothing from the host. Returns once it listens (bounded).
unbound_stub() {
    local upstream=${1:-} i
    [[ -n $upstream && $# == 1 ]] || die "unbound_stub UPSTREAM"
    command -v unbound >/dev/null 2>&1 || die "unbound_stub: unbound is not installed (scripts/install-deps test)"
    mkdir -p "$RUN/unbound"
    cat >"$RUN/unbound/unbound.conf" <<EOF2
server:
    interface: 127.0.0.1
    port: 53
    do-daemonize: no
    chroot: ""
    username: ""
    directory: "$RUN/unbound"
    pidfile: ""
    use-syslog: no
    logfile: ""
    verbosity: 1
    module-config: "iterator"
    do-ip6: no
    tls-cert-bundle: "/etc/ssl/certs/ca-certificates.crt"
remote-control:
    control-enable: no
forward-zone:
    name: "."
    forward-tls-upstream: yes
    forward-addr: $upstream@853
EOF2
    bg_start_client unbound unbound -d -c "$RUN/unbound/unbound.conf"
    for ((i = 0; i < 100; i++)); do
        in_client ss -lunH | awk '{print $4}' | grep -qxF 127.0.0.1:53 && break
        pid_alive "$(<"$RUN/pids/unbound.pid")" || die "unbound exited (log: $RUN/unbound.log)"
        sleep 0.05
    done
    ((i < 100)) || die "unbound did not listen within 5 s (log: $RUN/unbound.log)"
    printf 'nameserver 127.0.0.1\n' >"/etc/netns/$CLIENT_NS/resolv.conf"
}
