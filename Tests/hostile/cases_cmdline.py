"""Hostile command lines: numbers that are not decimal seconds, control characters in
every kind of argument, files that are not files as --ca-bundle. Each is a usage error
(64) said at once, escaped, naming what was wrong; --help and --version still answer."""

import os

from hostile import Case

ESC, BEL, CSI8 = "\x1b", "\x07", "\u009b"  # CSI8: the one-character C1 CSI, as UTF-8 on the command line
RANGE = "above 0 and at most 86400"


def seconds(name, argv, message, status=64):
    return Case(name, argv, status, stderr=[message])


CASES = [
    seconds("timeout-hex", ["--timeout", "0x10"], "not a number of seconds"),
    seconds("timeout-hex-upper", ["--timeout", "0X1A"], "not a number of seconds"),
    seconds("timeout-negative", ["--timeout", "-1"], "out of range; accepted for --timeout: " + RANGE),
    seconds("timeout-negative-equals", ["--timeout=-1"], "out of range; accepted for --timeout: " + RANGE),
    seconds("timeout-negative-fraction", ["--timeout", "-0.5"], "out of range"),
    seconds("timeout-zero", ["--timeout", "0"], "out of range"),
    seconds("timeout-nan", ["--timeout", "nan"], "not a number of seconds"),
    seconds("timeout-NaN-signalling", ["--timeout", "snan"], "not a number of seconds"),
    seconds("timeout-inf", ["--timeout", "inf"], "not a number of seconds"),
    seconds("timeout-minus-infinity", ["--timeout", "-infinity"], "not a number of seconds"),
    seconds("timeout-exponent", ["--timeout", "1e3"], "not a number of seconds"),
    seconds("timeout-plus-sign", ["--timeout", "+5"], "not a number of seconds"),
    seconds("timeout-two-points", ["--timeout", "1.2.3"], "not a number of seconds"),
    seconds("timeout-empty", ["--timeout", ""], "not a number of seconds"),
    seconds("timeout-space", ["--timeout", " 5"], "not a number of seconds"),
    seconds("timeout-too-large", ["--timeout", "86400.5"], "out of range"),
    seconds("timeout-huge-digits", ["--timeout", "9" * 400], "not a number of seconds"),
    seconds("timeout-unicode-digits", ["--timeout", "\u0665"], "not a number of seconds"),  # Arabic-Indic five
    seconds("timeout-next-option", ["--timeout", "--json"], "not a number of seconds"),
    seconds("timeout-missing", ["--timeout"], "Missing value for '--timeout <seconds>'"),
    seconds("wait-timeout-hex", ["wait", "--timeout", "0x1"], "not a number of seconds"),
    seconds("watch-interval-small", ["watch", "--interval", "0.01"], "accepted for --interval: at least 0.1"),
    seconds("watch-interval-negative", ["watch", "--interval", "-5"], "out of range; accepted for --interval"),
    seconds("watch-exec-timeout-nan", ["watch", "--exec-timeout", "NaN"], "accepted for --exec-timeout"),
    seconds("watch-exec-timeout-hex", ["watch", "--exec-timeout", "0x10"], "not a number of seconds"),
    seconds("watch-exec-timeout-negative", ["watch", "--exec-timeout=-3"], "out of range; accepted for --exec-timeout"),
    seconds("watch-heartbeat-hex", ["watch", "--heartbeat", "0x10"], "not a number of seconds"),
    seconds("watch-heartbeat-tiny", ["watch", "--heartbeat", "0.2"], "--heartbeat: 0 (none) or at least 1 second"),
    seconds("watch-heartbeat-huge", ["watch", "--heartbeat", "86401"], "out of range; accepted for --heartbeat"),
    Case("report-now-controls", ["report", "--now", "2026-03-02" + ESC + "[2J"], 64, stderr=["not an RFC 3339 date-time"]),
    Case("unknown-option-csi", ["--" + ESC + "[31mred" + ESC + "]0;title" + BEL], 64,
         stderr=["Unknown option", "\\x1b[31mred"]),
    Case("unknown-option-c1", ["--x" + CSI8 + "2J"], 64, stderr=["Unknown option", "\\u{009b}2J"]),
    Case("stray-argument-controls", ["check", "ex" + ESC + "[2Jtra" + BEL], 64, stderr=["\\x1b[2J"]),
    Case("format-value-bell", ["--format", "json" + BEL], 64, stderr=["\\x07"]),
    Case("interface-escape", ["-i", "eth" + ESC + "[2J"], 64, stderr=["is not an interface name", "\\x1b"]),
    Case("interface-too-long", ["-i", "x" * 16], 64, stderr=["is not an interface name"]),
    Case("capport-url-scheme", ["--capport-url", "javascript:" + ESC + "[2J"], 64,
         stderr=["--capport-url must be an https:// URL", "\\x1b"]),
    Case("proxy-url-controls", ["--proxy", "http://" + ESC + "[2Jproxy:3128"], 64, stderr=["--proxy"]),
    Case("invalid-utf8-argument", [b"--\xff\xfe\x1b[1m"], 64, stderr=["Unknown option"]),
    Case("option-128k", ["--" + "A" * 131000], 64, deadline=1, stderr=["Unknown option"]),
    Case("option-128k-after-value", ["--timeout", "1", "--" + ESC * 100000], 64, deadline=1, stderr=["Unknown option"]),
    Case("value-128k", ["--config", "x" * 131000], 78, deadline=2),
    Case("exec-program-controls", lambda ctx: ["watch", "--exec", ctx.path("no" + ESC + "[31mhook")], 64,
         stderr=["is not an executable file", "\\x1b[31mhook"]),
    Case("exec-bare", ["watch", "--exec"], 64, stderr=["--exec needs a program"]),
    Case("ca-bundle-fifo", lambda ctx: ["--timeout", "3", "--ca-bundle", ctx.path("fifo")], 64, deadline=2,
         setup=lambda ctx: os.mkfifo(ctx.path("fifo")), stderr=["a pipe, not a file"]),
    Case("ca-bundle-directory", ["--ca-bundle", "/tmp"], 64, stderr=["--ca-bundle /tmp: a directory, not a file"]),
    Case("ca-bundle-dev-zero", ["--ca-bundle", "/dev/zero"], 64, stderr=["a device, not a file"]),
    Case("ca-bundle-missing", ["--ca-bundle", "/nonexistent/ca.pem"], 64, stderr=["cannot open"]),
    Case("ca-bundle-empty", lambda ctx: ["--ca-bundle", ctx.write("empty.pem", "")], 64, stderr=["empty"]),
    Case("ca-bundle-controls", ["--ca-bundle", "/nonexistent/" + ESC + "]0;x" + BEL], 64, stderr=["\\x1b]0;x\\x07"]),
    Case("help", ["--help"], 0, stdout=["USAGE: netprobe", "SUBCOMMANDS:"]),
    Case("check-help", ["check", "--help"], 0, stdout=["--timeout <seconds>", "decimal seconds"]),
    Case("version", ["--version"], 0, stdout=["0."]),
    Case("subcommand-help", ["watch", "--help"], 0, stdout=["--exec-timeout <seconds>"]),
    Case("config-name-controls", ["config", "check", "/nonexistent/" + ESC + "[2J" + CSI8 + ".json"], 78,
         stderr=["\\x1b[2J\\u{009b}.json"]),
    # A valid file: the name is printed on stdout ("FILE: ok: ..."), escaped there too.
    Case("config-name-controls-valid",
         lambda ctx: ["config", "check", ctx.probes(["/generate_204"] * 2, name="p" + ESC + "[2J" + CSI8 + ".json")], 0,
         stdout=["p\\x1b[2J\\u{009b}.json: ok"]),
]

for case in CASES:
    case.kind = "command line"
