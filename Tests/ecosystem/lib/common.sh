# shellcheck shell=bash
# Shared by the tests in Tests/ecosystem/ (sourced, bash). Each test gets:
#   REPO         the repository root
#   NETPROBE     the binary under test ($NETPROBE_BIN, default .build/debug/netprobe)
#   WORK         a private temporary directory, removed when the test exits
#   PY           the Debian python3 (/usr/bin/python3): the one python3-jsonschema and
#                python3-prometheus-client from scripts/install-deps are installed for
#   ok / not_ok / expect_eq / expect_file_contains   TAP-like assertions; the test exits 1
#                when any failed (the runner shows this output only then)
#   in_netns     run a command in a fresh network namespace (see below)
set -u

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
NETPROBE=${NETPROBE_BIN:-$REPO/.build/debug/netprobe}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
FAILURES=0

WORK=$(mktemp -d "${TMPDIR:-/tmp}/netprobe-eco.XXXXXX")
# Background processes register their PIDs here; they are killed by PID, never by name.
CLEANUP_PIDS=""
cleanup_common() {
    for pid in $CLEANUP_PIDS; do kill "$pid" 2>/dev/null; done
    for pid in $CLEANUP_PIDS; do wait "$pid" 2>/dev/null; done
    rm -rf "$WORK"
}
trap cleanup_common EXIT
trap 'exit 143' TERM INT HUP

ok() { echo "ok - $*"; }
not_ok() {
    echo "not ok - $*"
    FAILURES=$((FAILURES + 1))
}

# check DESCRIPTION COMMAND...: ok when COMMAND succeeds; its output is shown when it fails.
check() {
    local description=$1 output
    shift
    if output=$("$@" 2>&1); then
        ok "$description"
    else
        not_ok "$description"
        [ -n "$output" ] && printf '%s\n' "$output" | sed 's/^/    /'
    fi
    return 0
}

expect_eq() {  # expect_eq DESCRIPTION EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1: expected '$2', got '$3'"; fi
}

finish() {
    if [ "$FAILURES" -gt 0 ]; then
        echo "$FAILURES check(s) failed"
        exit 1
    fi
    exit 0
}

require_binary() {
    if [ ! -x "$NETPROBE" ]; then
        not_ok "netprobe binary not found at $NETPROBE (build it, or set NETPROBE_BIN)"
        finish
    fi
}

# in_netns MODE -- COMMAND...: COMMAND runs in a private network (and mount) namespace
# via Tests/support/netns_run.sh, which vanishes with its last process, so nothing can
# reach a real network. MODE: lo (only loopback), online (a veth pair with
# 198.51.100.2/24 and a default route via 198.51.100.1, so the path gate passes),
# noroute, nocarrier. A probe_server.py listens on 127.0.0.1:8081 inside.
in_netns() {
    local mode=$1
    shift
    [ "$1" = -- ] && shift
    local dir
    dir=$(mktemp -d "$WORK/netns.XXXXXX")
    "$REPO/Tests/support/netns_run.sh" --dir "$dir" --net "$mode" --limit 40 \
        --server "--port 8081" -- "$@"
}

# help_options COMMAND...: the options `netprobe help COMMAND...` lists, one per line,
# long ones as --name and short-only ones as -x (the short forms of long options too).
help_options() {
    "$NETPROBE" help "$@" | sed -n '/^OPTIONS:/,$p' |
        grep -oE '^  (-[A-Za-z0-9](, |  |$))?(--[a-z0-9][a-z0-9-]*)?' | tr ',' ' ' | tr -s ' ' '\n' | grep -E '^-' | sort -u
}
