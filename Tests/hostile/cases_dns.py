"""Hostile answers from the link's own resolver: the probes' names fail with the configured
resolvers (the namespace reaches none), systemd-networkd's link state (a file of the case's,
through NETPROBE_NETIF_STATE_DIR) names Tests/support/dns_server.py on 198.51.100.53 (d1, the
far end of the namespace's veth) as the link's resolver, and that server answers badly on
purpose. The resolver runs in a namespace of its own holding d1, so its answers arrive on d0,
as a link's resolver's do (netprobe's socket is bound to the link). Every case ends in dns-failed with the link's error said, or (when the answer is
good) in resolver-blocked, within --timeout: never a crash, a hang or a verdict built on a
bad answer. The lease cases put lease files under a tmpfs over /var/lib (in the corpus's own
mount namespace) and check that only a current lease's unicast resolvers are asked."""

import json
import os
import subprocess
import time

from hostile import Case

SERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support", "dns_server.py")
WEB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support", "probe_server.py")
RESOLVER = "198.51.100.53"


def resolver_namespace(ctx):
    """A namespace holding d1 with RESOLVER on it, made once; deleted when the corpus ends."""
    name = "netprobe-hostile-dns-%d" % os.getpid()
    if not os.path.exists("/run/netns/" + name):
        subprocess.run(["ip", "netns", "add", name], check=True)
        ctx.cleanups.append(lambda: subprocess.run(["ip", "netns", "del", name], check=False))
        subprocess.run(["ip", "link", "set", "d1", "netns", name], check=True)
        for command in (["link", "set", "lo", "up"], ["link", "set", "d1", "up"], ["addr", "add", RESOLVER + "/24", "dev", "d1"]):
            subprocess.run(["ip", "-n", name] + command, check=True)
        # The probes' web server, beside the resolver and off loopback: netprobe never pins a
        # loopback answer, so the resolver answers with this host's address.
        portfile = os.path.join(ctx.root, "web-%s.port" % name)
        web = subprocess.Popen(["ip", "netns", "exec", name, "python3", WEB, "--bind", RESOLVER, "--port", "8080",
                                "--portfile", portfile], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ctx.cleanups.append(lambda: (web.kill(), web.wait()))
        for _ in range(200):
            if os.path.exists(portfile) and os.path.getsize(portfile) > 0:
                break
            time.sleep(0.025)
        else:
            raise RuntimeError("probe_server.py did not start in %s" % name)
    return name


def start_resolver(ctx, mode, networkd_dns=RESOLVER, ipv4=RESOLVER):
    """dns_server.py in `mode` on RESOLVER:53, answering `ipv4` (the web server beside it);
    the case's networkd link state names `networkd_dns` as the link's resolvers (None: no
    link state)."""
    namespace = resolver_namespace(ctx)
    server = subprocess.Popen(["ip", "netns", "exec", namespace, "python3", SERVER, "--address", RESOLVER, "--port", "53",
                               "--ipv4", ipv4, mode],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    ctx.spawned.append(server)
    line = server.stdout.readline()  # "listening 53" once bound, or "" if it died
    if not line.startswith("listening"):
        raise RuntimeError("dns_server.py %s did not start" % mode)
    with open("/sys/class/net/d0/ifindex") as f:
        index = f.read().strip()
    links = ctx.path("links")
    os.makedirs(links, exist_ok=True)
    if networkd_dns is not None:
        with open(os.path.join(links, index), "wb") as f:
            f.write(b"ADMIN_STATE=configured\nDNS=" + (networkd_dns if isinstance(networkd_dns, bytes) else networkd_dns.encode())
                    + b"\n")


LEASE_ROOTS = ["/var/lib", "/run/NetworkManager"]


def lease_directories(ctx):
    """An empty tmpfs over /var/lib and /run/NetworkManager, in the corpus's private mount
    namespace (the host's are never touched), so the cases' lease and device state files are
    the only ones netprobe reads; emptied for each case, unmounted when the corpus ends."""
    if not getattr(ctx, "lease_tmpfs", False):
        for root in LEASE_ROOTS:
            if not os.path.isdir(root):
                continue
            subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m,mode=0755", "hostile-leases", root], check=True)
            ctx.cleanups.append(lambda root=root: subprocess.run(["umount", root], check=False))
        ctx.lease_tmpfs = True
    for root in LEASE_ROOTS:
        for entry in os.listdir(root) if os.path.isdir(root) else []:
            subprocess.run(["rm", "-rf", os.path.join(root, entry)], check=True)


def write_lease(path, data, age=0):
    """A lease file at `path` under /var/lib (or at an absolute path under /run/NetworkManager,
    IFINDEX standing for d0's index), last written `age` seconds ago."""
    if "IFINDEX" in path:
        with open("/sys/class/net/d0/ifindex") as f:
            path = path.replace("IFINDEX", f.read().strip())
    full = os.path.join("/var/lib", path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    written = time.time() - age
    os.utime(full, (written, written))


def dns_case(mode, status, reason, link_error=None, timeout=4, name=None, leases=None, networkd_dns=RESOLVER,
             link=None, extra=None, kind="dns answer", ipv4=RESOLVER):
    """`leases`: {path under /var/lib: (text, age)} written before the run; `link`: the
    resolvers dns.link must list (default [RESOLVER]); `extra`: (report) -> error or None."""
    link = [RESOLVER] if link is None else link

    def setup(ctx):
        if leases is not None:
            lease_directories(ctx)
            for path, (data, age) in leases.items():
                write_lease(path, data, age)
        start_resolver(ctx, mode, networkd_dns, ipv4)

    def argv(ctx):
        probes = [{"name": "p%d" % i, "operator": "op%d" % i, "url": "http://probe%d.hostile.test:8080%s" % (i, path),
                   "expect": expect}
                  for i, (path, expect) in enumerate([("/generate_204", {"status": [204], "body": {"exact": ""}}),
                                                      ("/success.txt", {"status": [200], "body": {"prefix": "success"}}),
                                                      ("/apple", {"status": [200], "body": {"contains": "Success"}})])]
        config = ctx.write("probes.json", json.dumps({"version": 1, "timeout": timeout, "probe_timeout": timeout,
                                                      "quorum": 2, "probes": probes}))
        return ["--config", config, "--timeout", str(timeout), "--json"]

    def check(ctx, r):
        report = json.loads(r.stdout)
        if report["reason"] != reason:
            return "reason %s, expected %s" % (report["reason"], reason)
        dns = report["dns"]
        if dns["link"] != link or (link and not dns["link_asked"]):
            return "the link's resolvers were not %r, asked: %r" % (link, dns)
        if not link and dns["link_asked"]:
            return "a resolver asked that is no current lease's: %r" % dns
        if link_error and link_error not in (dns["link_error"] or ""):
            return "link_error %r lacks %r" % (dns["link_error"], link_error)
        if reason == "dns-failed" and (dns["used"] != "configured" or any(p["resolver"] == "link" for p in report["probes"])):
            return "a verdict built on a bad answer: %r" % dns
        return extra(report) if extra else None

    def env(ctx_dir):
        # No bus: the host's NetworkManager or resolved, if any, is never asked about d0.
        return {"NETPROBE_NETIF_STATE_DIR": os.path.join(ctx_dir, "links"),
                "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=" + os.path.join(ctx_dir, "no-bus")}

    case = Case(name or "dns-link-" + mode, argv, status, deadline=timeout + 1.5, timeout=timeout, json_clean=True,
                check=check, setup=setup, kind=kind)
    case.env_from_dir = env
    return case


CASES = [
    dns_case("answer", 1, "resolver-blocked"),
    dns_case("truncated", 1, "resolver-blocked"),
    dns_case("garbage", 1, "dns-failed"),
    dns_case("short", 1, "dns-failed", "cut short"),
    dns_case("wrong-id", 1, "dns-failed", "no answer"),
    dns_case("wrong-question", 1, "dns-failed", "no answer"),
    dns_case("loop", 1, "dns-failed", "compression pointer"),
    dns_case("forward", 1, "dns-failed", "compression pointer"),
    dns_case("huge-count", 1, "dns-failed", "cut short"),
    dns_case("servfail", 1, "dns-failed", "SERVFAIL"),
    dns_case("nxdomain", 1, "dns-failed", "NXDOMAIN"),
    dns_case("other-port", 1, "dns-failed", "no answer"),
    dns_case("silent", 1, "dns-failed", "no answer"),
]

# The fallback itself: a lost datagram is sent again; a truncated answer whose TCP retry is
# dropped costs only its own name; a silent first server leaves time for the second; answers
# of loopback, unspecified or multicast addresses are never pinned (the probes would go to
# this machine or the whole link); and the link's resolvers are asked only when every probe
# failed to resolve.
CASES += [
    dns_case("drop-first", 1, "resolver-blocked"),
    dns_case("truncated-first-tcp-silent", 1, "resolver-blocked"),
    dns_case("answer", 1, "resolver-blocked", name="dns-link-second-server", networkd_dns="198.51.100.54 " + RESOLVER,
             link=["198.51.100.54", RESOLVER]),
]
for address in ("127.0.0.1", "0.0.0.0", "224.0.0.1"):
    CASES.append(dns_case("answer", 1, "dns-failed", "only loopback, unspecified or multicast addresses",
                          name="dns-link-answers-" + address, ipv4=address))


def not_every_probe_case():
    """An IP-literal probe refused beside two names that do not resolve: DNS is the most
    common failure, but not every probe failed to resolve, so the link is not asked."""
    def setup(ctx):
        start_resolver(ctx, "answer")

    def argv(ctx):
        probes = [{"name": "literal", "operator": "op0", "url": "http://%s:9/generate_204" % RESOLVER,
                   "expect": {"status": [204], "body": {"exact": ""}}}]
        probes += [{"name": "p%d" % i, "operator": "op%d" % i, "url": "http://probe%d.hostile.test:8080/generate_204" % i,
                    "expect": {"status": [204], "body": {"exact": ""}}} for i in (1, 2)]
        config = ctx.write("probes.json", json.dumps({"version": 1, "timeout": 4, "probe_timeout": 4, "quorum": 2,
                                                      "probes": probes}))
        return ["--config", config, "--timeout", "4", "--json"]

    def check(ctx, r):
        report = json.loads(r.stdout)
        if report["reason"] != "dns-failed" or report["dns"]["link_asked"]:
            return "the link was asked though a probe did not fail to resolve: %s %r" % (report["reason"], report["dns"])
        return None

    case = Case("dns-link-not-every-probe", argv, 1, deadline=5.5, timeout=4, json_clean=True, check=check, setup=setup,
                kind="dns answer")
    case.env_from_dir = lambda d: {"NETPROBE_NETIF_STATE_DIR": os.path.join(d, "links")}
    return case


CASES.append(not_every_probe_case())

# Leases written to mislead: each read exactly, and no resolver asked that is not the current
# network's unicast one. d0 holds 198.51.100.2; RESOLVER answers well.
D0 = "198.51.100.2"
HEAD = 'lease {\n  interface "d0";\n  fixed-address %s;\n' % D0


def lease_case(name, leases, status, reason, link=None, networkd_dns=None, extra=None):
    """reason timeout: no lease counts, so nothing cuts the configured resolvers' silence short
    (the namespace reaches none) and the check ends at its deadline, having asked no one."""
    return dns_case("answer", status, reason, name="dns-lease-" + name, leases=leases, networkd_dns=networkd_dns,
                    link=link, extra=extra, kind="lease", timeout=3 if reason == "timeout" else 4)


NM_DEVICE = "/run/NetworkManager/devices/IFINDEX"


def nm_device_state(address, server, expiry=None):
    """NetworkManager's device state as 1.42 writes it after a DHCP lease (address, server and
    expiry replaced)."""
    expiry = int(expiry if expiry is not None else time.time() + 3600)
    return ("[device]\nmanaged=true\nperm-hw-addr-fake=76:45:7B:B0:8F:4E\nconnection-uuid=17beb79d-fe72-38fb-bbff-d1a4ab41ca78\n"
            "nm-owned=false\nroute-metric-default-effective=100\nnext-server=198.51.100.1\n\n[dhcp4]\n"
            "dhcp4.dhcp_lease_time=3600\ndhcp4.domain_name_servers=%s\ndhcp4.expiry=%d\ndhcp4.ip_address=%s\n"
            "dhcp4.subnet_mask=255.255.255.0\n" % (server, expiry, address))


def lease_error(text):
    def extra(report):
        errors = report["dns"]["lease_errors"]
        return None if any(text in e for e in errors) else "lease_errors %r lack %r" % (errors, text)
    return extra


CASES += [
    # NetworkManager's device state (as 1.42 writes it) of another address: another network's,
    # never asked; the same of d0's address is the link's; an expired one is not. Its internal
    # lease, which records the address alone, gives no resolver.
    lease_case("nm-stale", {NM_DEVICE: (nm_device_state("203.0.113.77", RESOLVER), 0)}, 1, "timeout", link=[]),
    lease_case("nm-current", {NM_DEVICE: (nm_device_state(D0, RESOLVER), 0),
                              "NetworkManager/internal-ffff-d0.lease": ("# This is private data. Do not parse.\nADDRESS=%s\n" % D0, 0)},
               1, "resolver-blocked"),
    lease_case("nm-expired", {NM_DEVICE: (nm_device_state(D0, RESOLVER, expiry=time.time() - 60), 0)}, 1, "timeout", link=[]),
    lease_case("nm-internal-lease-only",
               {"NetworkManager/internal-ffff-d0.lease": ("# This is private data. Do not parse.\nADDRESS=%s\n" % D0, 0)},
               1, "timeout", link=[]),
    lease_case("dhclient-quoted-brace",
               {"dhcp/dhclient.d0.leases": (HEAD + '  option domain-name "x}; option domain-name-servers 203.0.113.54;";\n'
                                            '  option domain-name-servers %s;\n  expire never;\n}\n' % RESOLVER, 0)},
               1, "resolver-blocked"),
    lease_case("dhclient-epoch",
               {"dhcp/dhclient.d0.leases": (HEAD + "  option domain-name-servers %s;\n  expire epoch %d;\n}\n"
                                            % (RESOLVER, time.time() + 3600), 0)},
               1, "resolver-blocked"),
    lease_case("dhclient-no-expire", {"dhcp/dhclient.d0.leases": (HEAD + "  option domain-name-servers %s;\n}\n" % RESOLVER, 0)},
               1, "timeout", link=[]),
    lease_case("dhclient-over-the-limit",
               {"dhcp/dhclient.d0.leases": (HEAD + "  option domain-name-servers %s;\n  expire never;\n}\n" % RESOLVER
                                            + "#" * 300000, 0)},
               1, "timeout", link=[], extra=lease_error("/var/lib/dhcp/dhclient.d0.leases: larger than")),
    lease_case("dhclient-cut-short",
               {"dhcp/dhclient.d0.leases": (HEAD + "  option domain-name-servers %s;\n  expire never;\n}\n" % RESOLVER
                                            + HEAD + "  option domain-name-servers 203.0.113.", 0)},
               1, "resolver-blocked"),
    # 0.0.0.0 and 127.0.0.1 first would have used the whole budget; 224.0.0.251 multicasts.
    lease_case("not-unicast", {}, 1, "resolver-blocked", networkd_dns="0.0.0.0 127.0.0.1 224.0.0.251 :: ::1 ff02::fb " + RESOLVER),
    # Zones with DEL and a C1 byte never reach dns.link (json_clean), nor does a zone off link-local.
    lease_case("zone-controls", {}, 1, "resolver-blocked",
               networkd_dns=b"fe80::53%d0\x7f fe80::53%\xc2\x85 2001:db8::53%d0 " + RESOLVER.encode()),
]
