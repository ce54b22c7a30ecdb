"""Hostile probes.json files, through `config check` and `check --config`: each is refused
(exit 78) at once, bounded in time and memory, naming the file, escaped."""

import json
import os

from hostile import Case

ESC, CSI8 = "\x1b", "\u009b"
PROBE = {"name": "p", "operator": "o", "url": "http://127.0.0.1:8080/generate_204",
         "expect": {"status": [204], "body": {"exact": ""}}}


def config(**overrides):
    doc = {"version": 1, "timeout": 4, "quorum": 1, "probes": [dict(PROBE)]}
    doc.update(overrides)
    return json.dumps(doc)


def probe(**overrides):
    p = dict(PROBE)
    p.update(overrides)
    return config(probes=[p])


def file_case(name, content, stderr=(), until=None, deadline=3, mode="w", rss_mb=64, via="config"):
    """`config check FILE` (via="config") or `check --config FILE` (via="check")."""
    def setup(ctx):
        ctx.write("probes.json", content, mode)

    def argv(ctx):
        path = ctx.path("probes.json")
        return ["config", "check", path] if via == "config" else ["--timeout", "3", "--config", path]
    return Case(name, argv, 78, deadline=deadline, setup=setup, stderr=list(stderr), until=until, rss_mb=rss_mb,
                kind="probes.json")


def special_case(name, make, stderr=(), until=None, via="config", deadline=3, rss_mb=64):
    """A probes.json that is not a regular file: `make(ctx)` returns its path."""
    paths = {}

    def setup(ctx):
        paths["p"] = make(ctx)

    def argv(ctx):
        return ["config", "check", paths["p"]] if via == "config" else ["--timeout", "3", "--config", paths["p"]]
    return Case(name, argv, 78, deadline=deadline, setup=setup, stderr=list(stderr), until=until, rss_mb=rss_mb,
                kind="probes.json")


def sparse(ctx):
    path = ctx.path("sparse.json")
    with open(path, "wb") as f:
        f.truncate(1 << 30)
    return path


def fifo(ctx):
    path = ctx.path("fifo.json")
    os.mkfifo(path)
    return path


LONG_DIR = "/nonexistent/" + "d" * 200 + "/"
LONG_PATH = LONG_DIR * 24 + "END-OF-PATH.json"  # about 5 KB: longer than the old 4 KB cut

CASES = [
    file_case("json-deep-open-brackets", "[" * 100000),
    file_case("json-deep-open-brackets-check", "[" * 100000, via="check"),
    file_case("json-deep-600-closed", "[" * 600 + "]" * 600),
    file_case("json-deep-objects", '{"a":' * 5000 + "1" + "}" * 5000),
    file_case("json-deep-arrays-1mb", ("[" * 500 + "]" * 500) * 1000, deadline=3),
    file_case("json-duplicate-key", '{"version": 1, "version": 1, "quorum": 1, "probes": [%s]}' % json.dumps(PROBE),
              stderr=["version"]),
    file_case("json-duplicate-probe-key", probe().replace('"name": "p"', '"name": "p", "name": "q"')),
    file_case("json-utf16", config().encode("utf-16"), mode="wb"),
    file_case("json-invalid-utf8", config().replace('"o"', '"o\xff\xfe"').encode("latin-1"), mode="wb",
              stderr=["line"]),
    file_case("json-nul-byte", config().replace('"o"', '"o\x00"').encode(), mode="wb"),
    file_case("json-empty", ""),
    file_case("json-not-json", "<html>" + ESC + "[2J</html>", stderr=["probes.json"]),
    file_case("json-number-overflow", config(timeout=1e308).replace("1e+308", "1e999")),
    file_case("json-200k-empty-probes", json.dumps({"version": 1, "probes": [{}] * 200000}), deadline=5),
    file_case("url-bad-percent", probe(url="http://%zz/"), stderr=["$.probes[0].url"]),
    file_case("url-unclosed-bracket", probe(url="http://[::1/x"), stderr=["$.probes[0].url"]),
    file_case("url-bracketed-name", probe(url="http://[example.com]/"), stderr=["$.probes[0].url"]),
    file_case("url-host-64-label", probe(url="http://" + "a" * 64 + ".example/"), stderr=["$.probes[0].url"]),
    file_case("url-host-300", probe(url="http://" + "abcdefghi." * 30 + "example/"), stderr=["$.probes[0].url"]),
    file_case("url-port-zero", probe(url="http://127.0.0.1:0/"), stderr=["$.probes[0].url"]),
    file_case("url-escape-sequence", probe(url="http://host/" + ESC + "[2J"), stderr=["\\x1b[2J"]),
    file_case("url-c1", probe(url="http://host/" + CSI8 + "31m"), stderr=["$.probes[0].url"]),
    file_case("name-escape-sequence", probe(name="p" + ESC + "]0;owned\x07"), stderr=["\\x1b]0;owned\\x07"]),
    file_case("url-bad-percent-check", probe(url="http://%zz/"), via="check", stderr=["$.probes[0].url"]),
    special_case("file-sparse-1gib", sparse, deadline=2),
    special_case("file-sparse-1gib-check", sparse, via="check", deadline=2),
    special_case("file-fifo", fifo, deadline=2),
    special_case("file-directory", lambda ctx: ctx.dir),
    special_case("file-dev-zero", lambda ctx: "/dev/zero", deadline=2),
    special_case("file-proc-pagemap", lambda ctx: "/proc/self/pagemap", deadline=2),
    special_case("file-long-path", lambda ctx: LONG_PATH, stderr=["END-OF-PATH.json"]),
]
