#!/bin/bash
# `netprobe report --format html` in a real browser: a few days of synthetic watch records
# (Tests/ecosystem/lib/synth_watch.py: outages, a captive portal, malformed and out-of-order
# lines, and a portal URL full of markup) rendered by headless Chromium with no network at
# all (unshare -n), to a screenshot and to its DOM. The DOM must have a timeline band per
# path with labelled outage and portal periods, a latency series per operator and a table
# row per path; the page must have no script and load nothing (no http(s) reference outside
# the escaped portal URLs in the table's text); the screenshot must be a real PNG. Also the
# text and JSON formats on the same input, and the exit statuses.
# shellcheck source=Tests/ecosystem/lib/common.sh
. "$(dirname "$0")/lib/common.sh"
require_binary
CHROMIUM=$(command -v chromium || true)

"$PY" "$REPO/Tests/ecosystem/lib/synth_watch.py" --days 4 --seed 3 --hostile >"$WORK/watch.jsonl"
# A portal whose login URL carries markup, a terminal control and a bidi override.
"$PY" -c 'import json, sys
lines = open(sys.argv[1]).read().splitlines()
last = json.loads(lines[-1])
last["verdict"], last["reason"] = "portal", "http-redirect"
last["portal"] = {"url": "http://evil.example/<script>alert(1)</script>\u001b[2J\u202e?a=\"b\"&c=<img src=x>"}
last["timestamp"] = last["timestamp"][:11] + "23:59:00.000Z"
print(json.dumps(last))' "$WORK/watch.jsonl" >>"$WORK/watch.jsonl"

"$NETPROBE" report --format html "$WORK/watch.jsonl" >"$WORK/report.html" 2>"$WORK/report.err"
expect_eq "report --format html exits 0 on a log with malformed lines" 0 "$?"
expect_eq "two malformed lines, each warned about on stderr with its file and line number" 2 \
    "$(grep -cE "^netprobe: $WORK/watch.jsonl:[0-9]+: skipped: " "$WORK/report.err")"
check "the warnings are escaped (no ESC byte on stderr)" sh -c '! grep -q "$(printf "\033")" "$1"' - "$WORK/report.err"

"$NETPROBE" report "$WORK/watch.jsonl" >"$WORK/report.txt" 2>/dev/null
check "report (text) has a row per path and the overall answer" \
    sh -c 'for p in overall "eth0 ipv4" "wlan0 ipv4" "wlan0 ipv6"; do grep -q "^$p  *[0-9]" "$1" || { echo "no row: $p"; exit 1; }; done' - "$WORK/report.txt"
check "report (text) lets no terminal control through" sh -c '! grep -q "$(printf "\033")" "$1"' - "$WORK/report.txt"
"$NETPROBE" report "$WORK/missing.jsonl" >"$WORK/missing.out" 2>&1
expect_eq "report on a FILE that cannot be read exits 66 (EX_NOINPUT)" 66 "$?"
check "... and says which file and why" grep -q "cannot read $WORK/missing.jsonl: No such file" "$WORK/missing.out"
"$NETPROBE" report --format pdf "$WORK/watch.jsonl" >/dev/null 2>&1
expect_eq "report --format pdf is a bad command line (64)" 64 "$?"
expect_eq "report reads stdin without FILE" "$(cat "$WORK/report.txt")" "$("$NETPROBE" report <"$WORK/watch.jsonl" 2>/dev/null)"

if [ -z "$CHROMIUM" ]; then
    not_ok "chromium is not installed (scripts/install-deps test)"
    finish
fi
# Headless, as root (no sandbox), with a throwaway profile, and no network: nothing can load.
browse() {
    unshare -n -- "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$WORK/profile" \
        --window-size=1280,1600 "$@" "file://$WORK/report.html"
}
browse --screenshot="$WORK/report.png" >"$WORK/chromium.log" 2>&1 || { not_ok "chromium --screenshot failed"; tail -n 5 "$WORK/chromium.log"; }
browse --dump-dom >"$WORK/dom.html" 2>>"$WORK/chromium.log" || { not_ok "chromium --dump-dom failed"; tail -n 5 "$WORK/chromium.log"; }

check "the screenshot is a 1280x1600 PNG of some substance (over 20 KB)" "$PY" -c 'import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
width, height = struct.unpack(">II", data[16:24])
assert (width, height) == (1280, 1600), (width, height)
assert len(data) > 20000, "only %d bytes" % len(data)' "$WORK/report.png"

check "the rendered DOM: a band per path with labelled outages and portal periods, a series per operator, a table row per path" \
    "$PY" - "$WORK/dom.html" <<'PYEOF'
import sys
from html.parser import HTMLParser

class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.elements, self.texts = [], [], []
    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.elements.append((tag, attrs))
        if tag not in ("br", "meta", "rect", "line", "circle", "polyline", "polygon"):
            self.stack.append((tag, attrs.get("class", "")))
    def handle_startendtag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))
    def handle_endtag(self, tag):
        while self.stack and self.stack.pop()[0] != tag:
            pass
    def handle_data(self, data):
        self.texts.append((data, [c for _, c in self.stack]))

page = Page()
page.feed(open(sys.argv[1]).read())
def having(tag, cls):
    return [a for t, a in page.elements if t == tag and cls in a.get("class", "").split()]
problems = []
def expect(ok, what):
    if not ok:
        problems.append(what)

bands = having("g", "path-band")
expect([b["data-path"] for b in bands] == ["overall", "eth0 ipv4", "wlan0 ipv4", "wlan0 ipv6"], "bands: %s" % [b.get("data-path") for b in bands])
expect(len(having("rect", "outage")) >= 10, "outage periods drawn: %d" % len(having("rect", "outage")))
expect(len(having("rect", "portal")) >= 3, "portal periods drawn: %d" % len(having("rect", "portal")))
labels = [d for d, classes in page.texts if any("outage-label" in c or "portal-label" in c for c in classes)]
expect(any("no-default-route" in l or "timeout" in l or "dns-failed" in l for l in labels), "outage labels: %s" % labels[:5])
expect(any("http-redirect" in l for l in labels), "portal labels: %s" % labels[:5])
expect(all(any(ch.isdigit() for ch in l) for l in labels), "a label without a duration")
titles = [d for d, classes in page.texts if classes and classes[-1] == "" and ("offline " in d or "portal " in d) and " to " in d]
expect(len(titles) >= 10, "tooltips on periods: %d" % len(titles))
series = having("g", "series")
expect(sorted(s["data-operator"] for s in series) == ["apple", "gnome", "google", "microsoft", "mozilla"], "series: %s" % series)
expect(len([1 for t, _ in page.elements if t == "polyline"]) >= 5, "latency lines")
rows = having("tr", "path-row")
expect(len(rows) == 4, "table rows: %d" % len(rows))
# Self-contained: no script, nothing that loads, no http(s) anywhere but the portal URLs' text.
expect(not any(t in ("script", "iframe", "img", "link", "object", "embed") for t, _ in page.elements), "an element that runs or loads")
for tag, attrs in page.elements:
    for name, value in attrs.items():
        if name.startswith("on") or name in ("href", "src", "xlink:href", "srcset", "action") or "http" in (value or "") or "url(" in (value or ""):
            problems.append("attribute %s=%r on <%s>" % (name, value, tag))
for data, classes in page.texts:
    if ("http:" in data or "https:" in data) and "portal-url" not in classes:
        problems.append("a URL outside the portal URLs: %r in %s" % (data[:80], classes))
style = "".join(d for d, classes in page.texts if classes and classes[-1] == "" and "{" in d)
expect("@import" not in style and "url(" not in style, "the style sheet loads something")
urls = [d for d, classes in page.texts if "portal-url" in classes]
expect(any("<script>alert(1)</script>" in u for u in urls), "the hostile portal URL is shown as text: %s" % urls)
expect(not any("\x1b" in d or "\u202e" in d for d, _ in page.texts), "a control or bidi override reached the page")
if problems:
    sys.exit("\n".join(problems))
PYEOF
check "the page source has no <script and no http(s) reference outside escaped text" \
    sh -c '! grep -qi "<script" "$1" && ! grep -qiE "<[^>]*[[:space:]](href|src|xlink:href)=" "$1"' - "$WORK/report.html"
finish
