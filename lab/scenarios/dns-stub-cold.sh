# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="systemd-resolved's stub with a cold cache (each name's first query answered 1.5 s late, as after boot): online within 2 s, never resolver-blocked; with resolved's state (the stub forwards to the link's resolver) nothing is cut, without it the link's resolver is asked after 1 s and then the stub again"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    link_dns_announce networkd "$GW_V4"
    stub_resolver "$GW_V4" --cold 1.5
}
scenario_test() {
    # 1. resolved's state says the stub forwards to the link's resolver: the stub's answer
    #    is waited for (no 1 s cut-off), and the link's resolver is never asked by netprobe.
    TIMEOUT=10 EXPECT_EXIT=0 EXPECT_VERDICT=online EXPECT_REASON=probes-validated
    CHECKS=(
        'r["dns"]["local_stub"] is True and r["dns"]["upstreams"] == ["198.51.100.1"]'
        'r["dns"]["used"] == "configured" and r["dns"]["link_asked"] is False'
        'all(p["resolver"] in ("configured", None) for p in probes)'
        'max(p["timings"]["dns_ms"] for p in probes if p["outcome"] == "success") >= 1400'
        'elapsed < 2'
    )
    np_step resolved-state check --json --timeout "$TIMEOUT"

    # 2. A cold stub whose upstreams are unknown (no state): names run out of the 1 s resolve
    #    cut-off. When every name did, the link's resolver is asked and the stub again before
    #    anything is concluded; when some resolved at once (a name two probes share, answered
    #    from the stub's cache), the cut-off ones are asked again through the stub. Either way:
    #    online, on the configured resolver's answers.
    lab_do stub_resolver "$GW_V4" --cold 1.5 --no-state
    TIMEOUT=10 EXPECT_EXIT=0 EXPECT_VERDICT=online EXPECT_REASON=probes-validated
    CHECKS=(
        'r["dns"]["local_stub"] is True and r["dns"]["upstreams"] == []'
        'r["dns"]["configured_retried"] is True'
        'r["dns"]["used"] == "configured"'
        'all(p["resolver"] in ("configured", None) for p in probes)'
        'elapsed < 2'
    )
    np_step unknown-upstreams check --json --timeout "$TIMEOUT"
    np_steps_result
}
