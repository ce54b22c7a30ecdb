# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="WISPr page whose values carry terminal escapes and a bidi override: shown escaped"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    portal wispr-hostile
}
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=wrong-content
CHECKS=(
    # JSON carries the values with every C0/C1 control replaced by U+FFFD (a consumer's
    # `jq -r` must not drive a terminal either); the bidi override is not a control ...
    'r["portal"]["location_name"] == "Lab\ufffd[2J\ufffd]0;pwned\ufffdCafe\ufffdBar \u202egpj.exe"'
    'r["portal"]["wispr"]["login_url"] == "https://login.portal.test/wispr/login?venue=lab&esc=\ufffd[31m"'
    # ... the resolved login URL is a clean URL ...
    'r["portal"]["source"] == "wispr" and r["portal"]["url"] == "https://login.portal.test/wispr/login?venue=lab&esc=%1B%5B31m"'
    # ... and the text output can never drive the terminal: no control character
    # but newline, no C1, no bidi override; the values are shown as escapes.
    'text_status == 2'
    'not any(ord(c) < 0x20 and c != "\n" or 0x7f <= ord(c) <= 0x9f or c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069" for c in text)'
    '"  log in at: https://login.portal.test/wispr/login?venue=lab&esc=%1B%5B31m  (from wispr)" in text.splitlines()'
    '"  venue: Lab\\x1b[2J\\x1b]0;pwned\\x07Cafe\\rBar \\u{202e}gpj.exe" in text.splitlines()'
)
scenario_test() {
    np_run_text check --timeout "$TIMEOUT"
    default_test
}
