# shellcheck shell=bash disable=SC2034 # scenario variables: lab up runs setup(), lab/test reads the rest
# Scenarios with a real DHCP client, one template a subject: each lab/scenarios/dhcp-*.sh
# sources this file and names its template and client (dhcp_scenario KIND CLIENT).

# dhcp_scenario capport|dropped|blocked|lease6|own-resolver dhclient|dhcpcd|static
#   capport: the client's lease holds option 114 (an API saying captive); a login-page portal.
#   dropped: the lease does not (dhcpcd: the server leaves it out of leases; dhclient: not
#     asked for; static: no lease file, only the address's lifetime); one DHCPINFORM finds it.
#   blocked: dropped, and the user's own resolver dropped too (the API's name resolves only
#     through the link's resolver).
#   lease6: dhcpcd's DHCPv4 lease lacks it, its DHCPv6 lease (.lease6, option 103) holds it.
#   own-resolver: the user's own resolver dropped behind a 302 portal, the lease's option 6
#     the way through.
dhcp_scenario() {
    DHCP_KIND=$1 DHCP_CLIENT=$2
    TIMEOUT=8
    EXPECT_EXIT=2
    EXPECT_VERDICT=portal
    local api='https://capport.portal.test/captive' source=$DHCP_CLIENT
    case $DHCP_KIND in
        capport)
            DESCRIPTION="real $DHCP_CLIENT leases eth0 from a real DHCP server announcing its Captive Portal API (option 114, saying captive) and resolver: API found in the lease"
            EXPECT_REASON=capport-captive
            DHCP_SERVER_ARGS=(--capport "$api") DHCP_CLIENT_ARGS=() ;;
        dropped)
            source=dhcpinform
            EXPECT_REASON=capport-captive
            DHCP_SERVER_ARGS=(--capport "$api") DHCP_CLIENT_ARGS=()
            case $DHCP_CLIENT in
                static) DESCRIPTION="a leased address whose lease netprobe reads nowhere (the lease time as its lifetime, no lease naming the server): no DHCPINFORM is sent, since only the lease's server may answer it; the portal with the URL the probes found" ;;
                dhcpcd) DESCRIPTION="real dhcpcd's lease lacks option 114 (the server leaves it out of leases); one DHCPINFORM, beside dhcpcd's own socket on port 68, finds the API"
                    DHCP_SERVER_ARGS+=(--no-option-114) ;;
                dhclient) DESCRIPTION="real dhclient configured without option 114 (as a client that does not know it); one DHCPINFORM, beside dhclient's own socket on port 68, finds the API"
                    DHCP_CLIENT_ARGS=(--no-request-114) ;;
            esac ;;
        blocked)
            source=dhcpinform
            DESCRIPTION="real $DHCP_CLIENT's lease lacks option 114 and the user's own resolver is dropped behind a login-page portal: the DHCPINFORM's API, its name looked up through the lease's resolver"
            EXPECT_REASON=capport-captive
            DHCP_SERVER_ARGS=(--capport "$api" --no-option-114) DHCP_CLIENT_ARGS=() ;;
        lease6)
            # The API only in the DHCPv6 lease: the DHCPv4 one lost option 114.
            DESCRIPTION="real dhcpcd leases eth0 over DHCPv4 (option 114 left out) and DHCPv6 (option 103: the API); the API read from its .lease6"
            EXPECT_REASON=capport-captive
            DHCP_SERVER_ARGS=(--capport "$api" --no-option-114 --v6) DHCP_CLIENT_ARGS=(--v6) ;;
        own-resolver)
            DESCRIPTION="real $DHCP_CLIENT leases eth0 (option 6: the gateway); the user's own resolver is dropped behind a 302 portal: portal through the resolver the lease names"
            EXPECT_REASON=http-redirect
            DHCP_SERVER_ARGS=() DHCP_CLIENT_ARGS=() ;;
        *) die "dhcp_scenario capport|dropped|blocked|lease6|own-resolver dhclient|dhcpcd|static" ;;
    esac
    case $DHCP_KIND in
        own-resolver) CHECKS=(
            'r["portal"]["url"] == "http://login.portal.test/login?venue=lab"'
            "r[\"dns\"][\"used\"] == \"link\" and r[\"dns\"][\"link_source\"] == \"$source\" and r[\"dns\"][\"link\"] == [\"198.51.100.1\"]"
            # No API anywhere: the network is asked once, answers at once, and names none.
            'r["dhcp_inform"]["state"] == "answered" and r["dhcp_inform"]["captive_portal"] is None and r["capport"] is None'
            # netprobe's own clock: the configured resolver's second, the link's answer, the portal.
            'r["duration_ms"] < 1600'
        ) ;;
        *) CHECKS=(
            "r[\"capport\"][\"uri\"] == \"$api\" and r[\"capport\"][\"source\"] == \"$source\""
            'r["capport"]["interface"] == "eth0" and r["capport"]["state"] == "answered" and r["capport"]["captive"] is True'
            'r["portal"]["source"] == "capport" and r["portal"]["url"] == "https://login.portal.test/portal?venue=lab"'
            "counters[\"dhcp_inform\"] == $([[ $DHCP_KIND == dropped || $DHCP_KIND == blocked ]] && echo 1 || echo 0)"
            'r["dhcp_inform"] is None or (r["dhcp_inform"]["state"] == "answered" and r["dhcp_inform"]["duration_ms"] < 500)'
            'r["duration_ms"] < 1000 or (r["dns"]["used"] == "link" and r["duration_ms"] < 1600)'
            "r[\"dns\"][\"used\"] == \"$([[ $DHCP_KIND == blocked ]] && echo link || echo configured)\""
        ) ;;
    esac
    if [[ $DHCP_KIND == dropped && $DHCP_CLIENT == static ]]; then
        EXPECT_REASON=wrong-content
        CHECKS=(
            'r["dhcp_inform"]["state"] == "no-server" and r["dhcp_inform"]["server"] is None'
            'r["dhcp_inform"]["duration_ms"] is None and r["capport"] is None'
            'r["portal"]["url"].startswith("http://") and r["portal"]["source"] != "capport"'
            'counters["dhcp_inform"] == 0'
            'r["duration_ms"] < 1000'
        )
    fi
}

setup() {
    if [[ $DHCP_CLIENT == static ]]; then client_ipv4 && client_leased; fi
    dhcp_server "${DHCP_SERVER_ARGS[@]}"
    if [[ $DHCP_CLIENT != static ]]; then
        dhcp_client "$DHCP_CLIENT" "${DHCP_CLIENT_ARGS[@]}"
        echo "nameserver $GW_V4" >"/etc/netns/$CLIENT_NS/resolv.conf"
    fi
    dns_vendors
    web_vendors
    if [[ $DHCP_KIND == own-resolver ]]; then
        portal redirect
    else
        portal login-page
    fi
    if [[ $DHCP_KIND == own-resolver || $DHCP_KIND == blocked ]]; then own_resolver 203.0.113.53 drop; fi
}
