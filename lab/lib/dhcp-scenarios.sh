# shellcheck shell=bash disable=SC2034 # scenario variables: lab up runs setup(), lab/test reads the rest
# Scenarios with a real DHCP client, one template a subject: each lab/scenarios/dhcp-*.sh
# sources this file and names its template and client (dhcp_scenario KIND CLIENT).

# dhcp_scenario capport|dropped|own-resolver dhclient|dhcpcd|static
#   capport: the client's lease holds option 114 (an API saying captive); a login-page portal.
#   dropped: the lease does not (dhcpcd: the server leaves it out of leases; dhclient: not
#     asked for; static: no lease at all); one DHCPINFORM finds it.
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
                static) DESCRIPTION="a static address (as networkd 252 leaves a link: option 114 dropped); one DHCPINFORM finds the Captive Portal API" ;;
                dhcpcd) DESCRIPTION="real dhcpcd's lease lacks option 114 (the server leaves it out of leases); one DHCPINFORM, beside dhcpcd's own socket on port 68, finds the API"
                    DHCP_SERVER_ARGS+=(--no-option-114) ;;
                dhclient) DESCRIPTION="real dhclient configured without option 114 (as a client that does not know it); one DHCPINFORM, beside dhclient's own socket on port 68, finds the API"
                    DHCP_CLIENT_ARGS=(--no-request-114) ;;
            esac ;;
        own-resolver)
            DESCRIPTION="real $DHCP_CLIENT leases eth0 (option 6: the gateway); the user's own resolver is dropped behind a 302 portal: portal through the resolver the lease names"
            EXPECT_REASON=http-redirect
            DHCP_SERVER_ARGS=() DHCP_CLIENT_ARGS=() ;;
        *) die "dhcp_scenario capport|dropped|own-resolver dhclient|dhcpcd|static" ;;
    esac
    case $DHCP_KIND in
        own-resolver) CHECKS=(
            'r["portal"]["url"] == "http://login.portal.test/login?venue=lab"'
            "r[\"dns\"][\"used\"] == \"link\" and r[\"dns\"][\"link_source\"] == \"$source\" and r[\"dns\"][\"link\"] == [\"198.51.100.1\"]"
            # No API anywhere: the network is asked once, answers at once, and names none.
            'r["dhcp_inform"]["state"] == "answered" and r["dhcp_inform"]["captive_portal"] is None and r["capport"] is None'
            'elapsed < 1.6'
        ) ;;
        *) CHECKS=(
            "r[\"capport\"][\"uri\"] == \"$api\" and r[\"capport\"][\"source\"] == \"$source\""
            'r["capport"]["interface"] == "eth0" and r["capport"]["state"] == "answered" and r["capport"]["captive"] is True'
            'r["portal"]["source"] == "capport" and r["portal"]["url"] == "https://login.portal.test/portal?venue=lab"'
            "counters[\"dhcp_inform\"] == $([[ $DHCP_KIND == dropped ]] && echo 1 || echo 0)"
            'r["dhcp_inform"] is None or (r["dhcp_inform"]["state"] == "answered" and r["dhcp_inform"]["duration_ms"] < 500)'
            'elapsed < 2'
        ) ;;
    esac
}

setup() {
    if [[ $DHCP_CLIENT == static ]]; then client_ipv4; fi
    dhcp_server "${DHCP_SERVER_ARGS[@]}"
    if [[ $DHCP_CLIENT != static ]]; then
        dhcp_client "$DHCP_CLIENT" "${DHCP_CLIENT_ARGS[@]}"
        echo "nameserver $GW_V4" >"/etc/netns/$CLIENT_NS/resolv.conf"
    fi
    dns_vendors
    web_vendors
    if [[ $DHCP_KIND == own-resolver ]]; then
        portal redirect
        own_resolver 203.0.113.53 drop
    else
        portal login-page
    fi
}
