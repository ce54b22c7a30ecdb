# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="HTTP intercepted: 302 with a relative Location (resolved against the probe URL)"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    portal redirect-relative
}
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=http-redirect
CHECKS=(
    'any(p["outcome"] == "portal" for p in probes)'
    'all(p["headers"]["location"] == "/login?venue=lab" for p in probes if p["outcome"] == "portal")'
    'r["portal"]["source"] == "redirect" and r["portal"]["status"] == 302'
    # Which probe gave it depends on timing: resolved against that probe's own URL.
    'r["portal"]["url"] == "http://" + [p for p in probes if p["name"] == r["portal"]["probe"]][0]["url"].split("/")[2] + "/login?venue=lab"'
    'r["portal"]["login_url"] is None and r["portal"]["wispr"] is None'
    'not any(p["outcome"] == "success" for p in probes)'
)
