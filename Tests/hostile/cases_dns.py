"""Hostile answers from the link's own resolver: the probes' names fail with the configured
resolvers (the namespace reaches none), systemd-networkd's link state (a file of the case's,
through NETPROBE_NETIF_STATE_DIR) names Tests/support/dns_server.py on 198.51.100.53 (d1, the
far end of the namespace's veth) as the link's resolver, and that server answers badly on
purpose. The resolver runs in a namespace of its own holding d1, so its answers arrive on d0,
as a link's resolver's do (netprobe's socket is bound to the link). Every case ends in dns-failed with the link's error said, or (when the answer is
good) in resolver-blocked, within --timeout: never a crash, a hang or a verdict built on a
bad answer."""

import json
import os
import subprocess

from hostile import Case

SERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support", "dns_server.py")
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
    return name


def start_resolver(ctx, mode):
    """dns_server.py in `mode` on RESOLVER:53, the link's resolver of the case's link state."""
    namespace = resolver_namespace(ctx)
    server = subprocess.Popen(["ip", "netns", "exec", namespace, "python3", SERVER, "--address", RESOLVER, "--port", "53",
                               "--ipv4", "127.0.0.1", mode],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    ctx.spawned.append(server)
    line = server.stdout.readline()  # "listening 53" once bound, or "" if it died
    if not line.startswith("listening"):
        raise RuntimeError("dns_server.py %s did not start" % mode)
    with open("/sys/class/net/d0/ifindex") as f:
        index = f.read().strip()
    links = ctx.path("links")
    os.makedirs(links, exist_ok=True)
    with open(os.path.join(links, index), "w") as f:
        f.write("ADMIN_STATE=configured\nDNS=%s\n" % RESOLVER)


def dns_case(mode, status, reason, link_error=None, timeout=4):
    def setup(ctx):
        start_resolver(ctx, mode)

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
        if dns["link"] != [RESOLVER] or not dns["link_asked"]:
            return "the link's resolver was not asked: %r" % dns
        if link_error and link_error not in (dns["link_error"] or ""):
            return "link_error %r lacks %r" % (dns["link_error"], link_error)
        if reason == "dns-failed" and (dns["used"] != "configured" or any(p["resolver"] == "link" for p in report["probes"])):
            return "a verdict built on a bad answer: %r" % dns
        return None

    def env(ctx_dir):
        return {"NETPROBE_NETIF_STATE_DIR": os.path.join(ctx_dir, "links")}

    case = Case("dns-link-" + mode, argv, status, deadline=timeout + 1.5, timeout=timeout, json_clean=True, check=check,
                setup=setup, kind="dns answer")
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
