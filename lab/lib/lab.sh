# shellcheck shell=bash disable=SC2034 # the addressing constants below are used by blocks.sh
# Lab core: run state, namespaces, background processes, teardown.
# Sourced by lab/lab and lab/test. The lab's base is in base.sh, the scenario
# building blocks in blocks.sh.
#
# A run is one lab instance: a client and a gateway namespace joined by a veth
# pair, plus the processes started in the gateway. Its state lives in
# lab/run/<id>/ (gitignored): `env` (names), `pids/*.pid`, logs, configs.
# Names are unique per run (np-<pid>-c / np-<pid>-g), so several runs can
# coexist; `lab/run/current` points at the last one brought up.

LAB_DIR=${LAB_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
LAB_RUNS=${LAB_RUNS:-$LAB_DIR/run}
# ip, nft, dnsmasq and nginx live in sbin, which a CI user's PATH may lack.
PATH=$PATH:/usr/sbin:/sbin

# The lab's fixed addressing (documentation ranges only, see conf/hosts).
GW_IF=lan0
CLIENT_IF=eth0
GW_V4=198.51.100.1
CLIENT_V4=198.51.100.2
LAN_V4_PREFIX=24
GW_V6=2001:db8:1::1
CLIENT_V6=2001:db8:1::2
GW_V6_LL=fe80::1
LAN_V6_PREFIX=64
# The client's second uplink (client_uplink2): a second veth pair to the
# same gateway, on subnets no lab host uses (the hosts of conf/hosts sit in
# 203.0.113.0/25 and 2001:db8:2::/64).
CLIENT_IF2=eth1
GW_IF2=lan1
GW2_V4=203.0.113.241
CLIENT2_V4=203.0.113.242
UPLINK2_V4_PREFIX=29
GW2_V6=2001:db8:3::1
CLIENT2_V6=2001:db8:3::2
UPLINK2_V6_PREFIX=64
# The client's tunnel (client_tun): a tun device whose far end is gone.
TUN_IF=tun0
TUN_V4=203.0.113.250
TUN_V4_PREFIX=29
TUN_V6=2001:db8:4::2
TUN_V6_PREFIX=64
# The one address outside the documentation ranges: what the lying resolver of
# dns_hijack answers. A private address, so that netprobe sees a hijack; it
# lives on the gateway's lo (the client reaches it by its default route), and
# the gateway has no uplink, so nothing sent to it can leave the lab.
HIJACK_V4=10.66.0.1

die() { echo "lab: $*" >&2; exit 1; }
note() { [[ ${LAB_QUIET:-0} == 1 ]] || echo "lab: $*" >&2; }

require_root() {
    [[ $(id -u) == 0 ]] || die "must run as root (network namespaces, nft)"
}

require_tools() {
    local t missing=()
    for t in ip nft dnsmasq nginx openssl python3 ss setsid sysctl timeout; do
        command -v "$t" >/dev/null 2>&1 || missing+=("$t")
    done
    ((${#missing[@]} == 0)) || die "missing tools: ${missing[*]} (see lab/README.md for the apt packages)"
}

# ---- run state ---------------------------------------------------------------

# Resolve the run to act on: $LAB_RUN (an id) or the `current` link.
run_select() {
    local id=${LAB_RUN:-}
    if [[ -z $id ]]; then
        [[ -L $LAB_RUNS/current ]] || die "no lab is up (lab up SCENARIO)"
        id=$(basename "$(readlink "$LAB_RUNS/current")")
    fi
    RUN=$LAB_RUNS/$id
    [[ -f $RUN/env ]] || die "no such lab run: $id"
    # shellcheck disable=SC1091
    source "$RUN/env"
}

# Create a fresh run directory with unique names and write its env file.
run_create() {
    local scenario=$1 n=0 id
    mkdir -p "$LAB_RUNS"
    id=np-$$
    while [[ -e $LAB_RUNS/$id || -e /run/netns/$id-c || -e /run/netns/$id-g ]]; do
        n=$((n + 1)); id=np-$$-$n
        ((n < 100)) || die "cannot find a free run id"
    done
    RUN=$LAB_RUNS/$id
    mkdir -p "$RUN/pids" "$RUN/nginx-tmp"
    LAB_ID=$id
    CLIENT_NS=$id-c
    GW_NS=$id-g
    SCENARIO=$scenario
    {
        printf 'LAB_ID=%q\n' "$LAB_ID"
        printf 'CLIENT_NS=%q\n' "$CLIENT_NS"
        printf 'GW_NS=%q\n' "$GW_NS"
        printf 'SCENARIO=%q\n' "$SCENARIO"
        printf 'CREATED=%q\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    } >"$RUN/env"
}

in_client() { ip netns exec "$CLIENT_NS" "$@"; }
in_gw() { ip netns exec "$GW_NS" "$@"; }

# ---- background processes ------------------------------------------------------

# bg_start NAME CMD... : run CMD in the gateway namespace, detached, logging to
# $RUN/NAME.log; its PID goes to $RUN/pids/NAME.pid. `ip netns exec` execs the
# command in place, so $! is the server's own PID.
bg_start() { bg_start_in "$GW_NS" "$@"; }

# bg_start_client NAME CMD... : the same in the client namespace (a process
# that must live there, e.g. the one holding a tun device open).
bg_start_client() { bg_start_in "$CLIENT_NS" "$@"; }

bg_start_in() {
    local ns=$1 name=$2; shift 2
    setsid ip netns exec "$ns" "$@" >"$RUN/$name.log" 2>&1 </dev/null &
    echo $! >"$RUN/pids/$name.pid"
}

# bg_wait_listen NAME PROTO ADDR:PORT : wait (bounded) until the process listens.
bg_wait_listen() {
    local name=$1 proto=$2 want=$3 pid i flag
    pid=$(<"$RUN/pids/$name.pid")
    [[ $proto == tcp ]] && flag=-ltnH || flag=-lunH
    for ((i = 0; i < 100; i++)); do
        if ! pid_alive "$pid"; then
            sed 's/^/    /' "$RUN/$name.log" >&2 || true
            die "$name exited during start-up (log above)"
        fi
        if in_gw ss "$flag" | awk '{print $4}' | grep -qxF -- "$want"; then
            return 0
        fi
        sleep 0.05
    done
    die "$name did not listen on $proto $want within 5 s (log: $RUN/$name.log)"
}

# Kill a PID only if it still runs inside one of this run's namespaces, so a
# stale pidfile can never hit an unrelated process that reused the number.
pid_in_lab() {
    local pid=$1 ns
    for ns in "$CLIENT_NS" "$GW_NS"; do
        [[ -e /run/netns/$ns ]] || continue
        ip netns pids "$ns" 2>/dev/null | grep -qx -- "$pid" && return 0
    done
    return 1
}

# Running, not merely a zombie: our servers are reparented to PID 1, which
# may be slow to reap them, and a zombie has already let go of everything.
pid_alive() {
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    stat=${stat##*) }
    [[ ${stat%% *} != Z ]]
}

kill_pids() {
    local pids=("$@") pid i alive
    ((${#pids[@]})) || return 0
    kill -TERM "${pids[@]}" 2>/dev/null || true
    # A stopped process (daemon_freeze) takes its TERM once continued.
    kill -CONT "${pids[@]}" 2>/dev/null || true
    for ((i = 0; i < 40; i++)); do
        alive=()
        for pid in "${pids[@]}"; do pid_alive "$pid" && alive+=("$pid"); done
        ((${#alive[@]})) || return 0
        sleep 0.05
    done
    kill -KILL "${alive[@]}" 2>/dev/null || true
}

# ---- devices -------------------------------------------------------------------

# device_made NS IF: record a device a block created beyond the base pair, so
# teardown deletes it by name before the namespaces go (a device whose kind
# the kernel moves back to the host's namespace on netns deletion would
# otherwise outlive the lab).
device_made() {
    printf '%s %s\n' "$1" "$2" >>"$RUN/devices"
}

# ---- teardown ------------------------------------------------------------------

# Tear down the selected run: servers by pidfile, then anything else still in
# the namespaces (e.g. an interrupted `lab exec`), then namespaces and files.
run_teardown() {
    local f pid ns pids=()
    if [[ -d $RUN/pids ]]; then
        for f in "$RUN"/pids/*.pid; do
            [[ -e $f ]] || continue
            pid=$(<"$f")
            [[ $pid =~ ^[0-9]+$ ]] && pid_in_lab "$pid" && pids+=("$pid")
        done
    fi
    kill_pids "${pids[@]}"
    if [[ -f $RUN/devices ]]; then
        local dev
        while read -r ns dev; do
            [[ ($ns == "$CLIENT_NS" || $ns == "$GW_NS") && -e /run/netns/$ns ]] || continue
            ip -n "$ns" link del "$dev" 2>/dev/null || true
        done <"$RUN/devices"
    fi
    for ns in "$CLIENT_NS" "$GW_NS"; do
        rm -rf "/etc/netns/${ns:?}"
        [[ -e /run/netns/$ns ]] || continue
        mapfile -t pids < <(ip netns pids "$ns" 2>/dev/null)
        kill_pids "${pids[@]}"
        ip netns del "$ns" 2>/dev/null || true
    done
    # Labs side by side (lab/test -j) leave it to their runner: another may be making its files.
    [[ ${LAB_KEEP_ETC_NETNS:-0} == 1 ]] || rmdir /etc/netns 2>/dev/null || true
    if [[ -L $LAB_RUNS/current && $(readlink "$LAB_RUNS/current") == "$LAB_ID" ]]; then
        rm -f "$LAB_RUNS/current"
    fi
    if [[ ${LAB_KEEP:-0} == 1 ]]; then
        mv "$RUN/env" "$RUN/env.kept"  # no longer a live run; lab down --all removes it
        note "kept $RUN (LAB_KEEP=1)"
    else
        rm -rf "${RUN:?}"
    fi
}
