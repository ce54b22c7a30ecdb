# shellcheck shell=bash
# Helpers for the allow-listing portal scenarios' scenario_test (sourced by
# lab/scenarios/portal-allowlist-*.sh): the portal is set up again for each allow-list
# (`lab do portal`), netprobe checks it several times, and the verdicts are counted. The lab
# never knows which first wave netprobe draws; where it picks hosts at random, it draws them
# itself (bash's $RANDOM) and names them in steps.txt.

# Each operator's check hosts in conf/hosts (plain HTTP and HTTPS alike), and the host of
# each probe of the built-in set.
declare -A ALLOWLIST_OPERATOR_HOSTS=(
    [apple]="captive.apple.com"
    [google]="connectivitycheck.gstatic.com www.google.com"
    [mozilla]="detectportal.firefox.com"
    [microsoft]="www.msftconnecttest.com"
    [gnome]="nmcheck.gnome.org"
    [cloudflare]="cp.cloudflare.com"
)
ALLOWLIST_HTTP=(apple:captive.apple.com google:connectivitycheck.gstatic.com mozilla:detectportal.firefox.com
    microsoft:www.msftconnecttest.com gnome:nmcheck.gnome.org)
ALLOWLIST_HTTPS=(google:www.google.com apple:captive.apple.com cloudflare:cp.cloudflare.com)

# allowlist_random_operators: two operators, drawn by the lab.
allowlist_random_operators() {
    local operators=(apple google mozilla microsoft gnome cloudflare) first second
    first=$((RANDOM % 6))
    second=$(((first + 1 + RANDOM % 5) % 6))
    echo "${operators[$first]} ${operators[$second]}"
}

# allowlist_random_wave: the hosts of a first wave the lab draws for itself: two plain-HTTP
# operators and the HTTPS host of a third.
allowlist_random_wave() {
    local first second https op1 op2
    first=$((RANDOM % 5))
    second=$(((first + 1 + RANDOM % 4) % 5))
    op1=${ALLOWLIST_HTTP[$first]%%:*} op2=${ALLOWLIST_HTTP[$second]%%:*}
    while :; do
        https=${ALLOWLIST_HTTPS[$((RANDOM % 3))]}
        [[ ${https%%:*} != "$op1" && ${https%%:*} != "$op2" ]] && break
    done
    echo "${ALLOWLIST_HTTP[$first]#*:} ${ALLOWLIST_HTTP[$second]#*:} ${https#*:}"
}

# allowlist_runs LABEL RUNS MIN_PORTAL MODE HTTPS HOST...: the portal MODE (conf/portals),
# HTTPS to other hosts HTTPS (drop or reset), letting each HOST through on :80 and :443;
# RUNS checks; at least MIN_PORTAL of them must say portal (exit 2) and every other one
# online. The counts go to steps.txt and the PASS line.
allowlist_runs() {
    local label=$1 runs=$2 min=$3 mode=$4 https=$5 host n portal=0 online=0 other=0 verdict args=()
    shift 5
    for host in "$@"; do args+=(--allow-tls "$host"); done
    "$LAB" do portal "$mode" --https "$https" "${args[@]}"
    for ((n = 0; n < runs; n++)); do
        np_run check --json --timeout "$TIMEOUT"
        verdict=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["verdict"])' "$DIR/report.json" 2>/dev/null) ||
            verdict="(no report)"
        case $verdict:$NP_RC in
            portal:2) portal=$((portal + 1)) ;;
            online:0) online=$((online + 1)) ;;
            *) other=$((other + 1)); cp "$DIR/report.json" "$DIR/$label.$n.report.json" 2>/dev/null || true ;;
        esac
    done
    local mark=pass
    if ((portal < min || other > 0)); then
        mark=FAIL
        STEPS_FAILED+=("$label")
    fi
    printf '%s %s: portal %s, https %s, let through: %s -> portal in %d of %d checks (at least %d), online %d, other %d\n' \
        "$mark" "$label" "$mode" "$https" "$*" "$portal" "$runs" "$min" "$online" "$other" >>"$DIR/steps.txt"
    STEPS_DONE+=("$label $portal/$runs portal")
}
