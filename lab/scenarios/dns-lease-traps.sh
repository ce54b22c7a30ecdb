# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="the refusing portal, the link's resolver only in a dhclient lease, written each time with a trap: a } inside a quoted option, the epoch form of expire, no expire, a file over the size limit, resolvers that are not unicast, a block cut short. Each is read exactly: portal through the gateway where the lease is good, dns-failed where it cannot be trusted, never a resolver it must not ask"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    portal redirect
    own_resolver 203.0.113.53 refuse
    count_to trap_dns 203.0.113.54
}
# trap_step LABEL EXPECTATION LEASE-TEXT: the dhclient lease file is TEXT (and TRAP_PAD
# bytes of comment); then one check.
# EXPECTATION portal: found through the gateway; untrusted: no link resolver, dns-failed.
trap_step() {
    local label=$1 expectation=$2 text=$3
    lab_do lease_file dhcp/dhclient.eth0.leases --pad "${TRAP_PAD:-0}" "$text"
    TRAP_PAD=0
    lab_do counters_reset
    TIMEOUT=6
    if [[ $expectation == portal ]]; then
        EXPECT_EXIT=2 EXPECT_VERDICT=portal EXPECT_REASON=http-redirect
        CHECKS=('r["dns"]["used"] == "link" and r["dns"]["link"] == ["198.51.100.1"]' 'counters["trap_dns"] == 0')
    else
        EXPECT_EXIT=1 EXPECT_VERDICT=offline EXPECT_REASON=dns-failed
        CHECKS=('r["dns"]["link"] == [] and r["dns"]["link_asked"] is False' 'counters["trap_dns"] == 0')
    fi
    CHECKS+=("${TRAP_CHECKS[@]}")
    TRAP_CHECKS=()
    np_step "$label" check --json --timeout "$TIMEOUT"
}
scenario_test() {
    local head='lease {\n  interface "eth0";\n  fixed-address 198.51.100.2;\n' later
    later=$(($(date +%s) + 3600))
    TRAP_CHECKS=()
    trap_step quoted-brace portal "$(printf "$head"'  option domain-name "x}; option domain-name-servers 203.0.113.54;";\n  option domain-name-servers 198.51.100.1;\n  expire never;\n}\n')"
    trap_step epoch portal "$(printf "$head"'  option domain-name-servers 198.51.100.1;\n  expire epoch %s; # in an hour\n}\n' "$later")"
    trap_step no-expire untrusted "$(printf "$head"'  option domain-name-servers 198.51.100.1;\n}\n')"
    TRAP_CHECKS=('any(e.startswith("/var/lib/dhcp/dhclient.eth0.leases: larger than") for e in r["dns"]["lease_errors"])')
    TRAP_PAD=300000
    trap_step over-the-limit untrusted "$(printf "$head"'  option domain-name-servers 198.51.100.1;\n  expire never;\n}\n')"
    trap_step not-unicast portal "$(printf "$head"'  option domain-name-servers 0.0.0.0, 127.0.0.1, 224.0.0.251, 198.51.100.1;\n  expire never;\n}\n')"
    trap_step cut-short portal "$(printf "$head"'  option domain-name-servers 198.51.100.1;\n  expire never;\n}\n'"$head"'  option domain-name-servers 203.0.113.')"
    np_steps_result
}
