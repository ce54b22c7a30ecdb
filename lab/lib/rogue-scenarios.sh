# shellcheck shell=bash disable=SC2034 # scenario variables: lab up runs setup(), lab/test reads the rest
# Scenarios with a rogue on the LAN: the real dhclient leases eth0 from the real DHCP server
# (dnsmasq, option 114 left out of the lease), a login-page portal shows, netprobe asks the
# server by DHCPINFORM, and a neighbour (dhcp_rogue) answers first. Each lab/scenarios/
# dhcp-inform-rogue-*.sh sources this file and names its kind (rogue_scenario KIND).

# rogue_scenario own|forged-id|wrong-client|alone|hostile
#   own: the neighbour answers from its own address, as itself, naming its API and itself
#     as resolver; then the server answers.
#   forged-id: from its own address, with option 54 forged to the server's; then the server.
#   wrong-client: from the server's own address, for another transaction and for another
#     chaddr; then the server.
#   alone: the neighbour (its own address, option 54 forged) and no server answer at all.
#   hostile: from the server's address: an ACK for another transaction, an echoed request, an
#     OFFER and a message cut short, each naming another API, then the server's answer, then an
#     ACK whose URI holds an escape sequence (too late).
rogue_scenario() {
    ROGUE_KIND=$1
    local evil=https://evil.example/api
    ROGUE_SERVER="uri=$API,dns=198.51.100.1"
    TIMEOUT=8
    EXPECT_EXIT=2
    EXPECT_VERDICT=portal
    EXPECT_REASON=capport-captive
    CHECKS=(
        'r["capport"]["uri"] == "https://capport.portal.test/captive" and r["capport"]["source"] == "dhcpinform"'
        'r["portal"]["source"] == "capport" and r["portal"]["url"] == "https://login.portal.test/portal?venue=lab"'
        'r["dhcp_inform"]["state"] == "answered" and r["dhcp_inform"]["server"] == "198.51.100.1"'
        '"evil" not in str(r) and "198.51.100.9" not in str(r["dns"])'
        'counters["dhcp_inform"] == 1'
    )
    case $ROGUE_KIND in
        own)
            DESCRIPTION="a neighbour on the LAN answers the DHCPINFORM first, from its own address, naming its own API and itself as resolver; the real server later: only the server's answer is used"
            ROGUE_ANSWERS=("from=198.51.100.9,id=198.51.100.9,uri=$evil,dns=198.51.100.9" "$ROGUE_SERVER")
            CHECKS+=('r["dhcp_inform"]["ignored"] == 1 and r["dhcp_inform"]["ignored_reason"].startswith("198.51.100.9: sent from an address")') ;;
        forged-id)
            DESCRIPTION="a neighbour answers the DHCPINFORM first from its own address with option 54 forged to the real server's; the real server later: only the server's answer is used"
            ROGUE_ANSWERS=("from=198.51.100.9,uri=$evil,dns=198.51.100.9" "$ROGUE_SERVER")
            CHECKS+=('r["dhcp_inform"]["ignored"] == 1') ;;
        wrong-client)
            DESCRIPTION="a neighbour forging the real server's address answers first for another transaction, then for another chaddr; the real server later: only the server's answer is used"
            ROGUE_ANSWERS=("xid=other,uri=$evil,dns=198.51.100.9" "chaddr=other,uri=$evil,dns=198.51.100.9" "$ROGUE_SERVER")
            CHECKS+=('r["dhcp_inform"]["ignored"] == 2 and r["dhcp_inform"]["ignored_reason"] == "198.51.100.1: another client (chaddr or ciaddr)"') ;;
        alone)
            DESCRIPTION="the real server answers no DHCPINFORM; a neighbour does (its own address, option 54 forged, its API, itself as resolver): nothing of it is used, the portal stands with the URL the probes found"
            ROGUE_ANSWERS=("from=198.51.100.9,uri=$evil,dns=198.51.100.9")
            EXPECT_REASON=wrong-content
            CHECKS=(
                'r["capport"] is None and r["portal"]["url"].startswith("http://") and r["portal"]["source"] != "capport"'
                'r["dhcp_inform"]["state"] == "no-answer" and r["dhcp_inform"]["server"] == "198.51.100.1"'
                'r["dhcp_inform"]["ignored"] >= 1 and r["dhcp_inform"]["ignored_reason"].startswith("198.51.100.9: ")'
                'r["dhcp_inform"]["captive_portal"] is None and r["dhcp_inform"]["dns"] == []'
                '"evil" not in str(r) and "198.51.100.9" not in str(r["dns"])'
                'counters["dhcp_inform"] >= 1'
            ) ;;
        hostile)
            DESCRIPTION="answers to the DHCPINFORM from the server's address: an ACK for another transaction, an echoed request, an OFFER and a cut message, each naming another API, then the server's ACK, then an ACK whose URI holds an escape sequence: only the server's ACK is taken"
            ROGUE_ANSWERS=("xid=other,uri=https://evil.example/api" "op=1,uri=https://evil.example/echo"
                "type=2,uri=https://evil.example/offer" "cut=200,$ROGUE_SERVER" "$ROGUE_SERVER"
                "uri=https://evil.example/%1b[2J")
            CHECKS+=('r["dhcp_inform"]["ignored"] == 4') ;;
        *) die "rogue_scenario own|forged-id|wrong-client|alone|hostile" ;;
    esac
}

API=https://capport.portal.test/captive

setup() {
    dhcp_server --capport "$API" --no-option-114
    dhcp_client dhclient --no-request-114
    echo "nameserver $GW_V4" >"/etc/netns/$CLIENT_NS/resolv.conf"
    dhcp_rogue "${ROGUE_ANSWERS[@]}"
    dns_vendors
    web_vendors
    portal login-page
}
