DESCRIPTION="open network: every vendor answers correctly (IPv4)"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
}
