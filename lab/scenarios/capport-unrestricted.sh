# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="the network announces urn:ietf:params:capport:unrestricted: no API asked"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    capport_announce urn:ietf:params:capport:unrestricted
}
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    'r["portal"] is None'
    'r["capport"]["uri"] == "urn:ietf:params:capport:unrestricted"'
    'r["capport"]["state"] == "unrestricted" and r["capport"]["error"] is None'
    # Unrestricted means "no portal": captive false (the schema), though never asked.
    'r["capport"]["captive"] is False and r["capport"]["status"] is None'
    'counters["client_capport"] == 0'
)
