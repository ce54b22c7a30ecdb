#!/bin/bash
# The Debian package (`make deb` builds it; this test never builds): installed on this
# machine with `apt-get install ./netprobe_VERSION_ARCH.deb`, checked, then purged.
#   - one version: Sources/netprobe/Netprobe.swift (scripts/version), debian/changelog,
#     the .deb and the installed `netprobe --version` agree
#   - the installed files, /etc/netprobe/probes.json a conffile, no unit enabled
#   - `netprobe config check`, `man -w`, `systemd-analyze verify` of the installed units,
#     `systemd-analyze security --offline=true` at most 2.0 for each
#   - the installed schemas with the stock validators, offline, on real output
#   - the installed binary as the units run it (uid 65534, no capabilities, their
#     seccomp rules) in a private namespace: a probe on loopback validated
#   - a changed conffile survives a reinstall; `apt-get purge` leaves nothing behind:
#     every file the package had is gone, and no path named *netprobe* appeared
# A netprobe package installed before the test is left alone (the test is skipped); an
# /etc/netprobe from `make install` is moved aside and put back.
# shellcheck source=Tests/ecosystem/lib/common.sh
. "$(dirname "$0")/lib/common.sh"
VERSION=$("$REPO/scripts/version")
ARCH=$(dpkg --print-architecture)
DEB=$REPO/netprobe_${VERSION}_${ARCH}.deb
export DEBIAN_FRONTEND=noninteractive

if [ ! -f "$DEB" ]; then
    not_ok "no $DEB: run make deb first (make check does)"
    finish
fi
if dpkg-query -W -f='${Status}' netprobe 2>/dev/null | grep -q 'ok installed\|config-files'; then
    ok "SKIP: a netprobe package is already on this machine; not touching it"
    finish
fi

# Paths named *netprobe* outside the work trees, before and after (not in caches: man-db
# formats pages into /var/cache/man on its own).
netprobe_paths() {
    find /etc /usr /lib /var /run /opt -xdev \( -path /var/tmp -o -path /var/lib/docker -o -path /opt/swift-packages \
        -o -path /var/cache/apt -o -path /var/cache/man -o -path /run/netns \) -prune -o -iname '*netprobe*' -print 2>/dev/null |
        grep -v -e '^/opt/netprobe-pytools' | sort
}
netprobe_paths >"$WORK/before.txt"

MOVED=""
if [ -e /etc/netprobe ]; then
    mv /etc/netprobe "$WORK/etc-netprobe.saved" && MOVED=1
fi
purge() { apt-get purge -y -qq netprobe >"$WORK/purge.log" 2>&1; }
restore() {
    dpkg-query -W -f='${Status}' netprobe 2>/dev/null | grep -q 'ok installed\|config-files' && purge
    if [ -n "$MOVED" ] && [ -e "$WORK/etc-netprobe.saved" ]; then
        rm -rf /etc/netprobe
        mv "$WORK/etc-netprobe.saved" /etc/netprobe
    fi
    cleanup_common
}
trap restore EXIT

# ---- one version -----------------------------------------------------------------------
expect_eq "debian/changelog's version is the source's (scripts/version)" "$VERSION" \
    "$(dpkg-parsechangelog -l "$REPO/debian/changelog" -S Version)"
expect_eq "the .deb's version" "$VERSION" "$(dpkg-deb -f "$DEB" Version)"

# ---- install ---------------------------------------------------------------------------
if apt-get install -y -qq "$DEB" >"$WORK/install.log" 2>&1; then ok "apt-get install ./$(basename "$DEB")"; else
    not_ok "apt-get install failed"
    sed 's/^/    /' "$WORK/install.log"
    finish
fi
expect_eq "installed netprobe --version" "$VERSION" "$(/usr/bin/netprobe --version 2>&1)"
check "netprobe config check (the installed /etc/netprobe/probes.json)" \
    sh -c 'out=$(/usr/bin/netprobe config check) && case $out in *"/etc/netprobe/probes.json: ok: "*) ;; *) echo "$out"; exit 1 ;; esac'
check "/etc/netprobe/probes.json is a conffile" \
    sh -c 'dpkg-query -W -f="\${Conffiles}\n" netprobe | grep -q "^ /etc/netprobe/probes.json "'
dpkg -L netprobe | sort >"$WORK/files.txt"
for f in /usr/bin/netprobe /usr/share/man/man1/netprobe.1.gz /usr/share/netprobe/probes.json \
    /usr/share/netprobe/schemas/report.schema.json /usr/share/netprobe/schemas/path.schema.json \
    /usr/share/netprobe/schemas/probes.schema.json /usr/share/bash-completion/completions/netprobe \
    /usr/share/zsh/site-functions/_netprobe /usr/share/fish/vendor_completions.d/netprobe.fish \
    /lib/systemd/system/netprobe-watch.service /lib/systemd/system/netprobe-wait-online.service \
    /lib/systemd/system/netprobe-textfile.service /usr/share/doc/netprobe/copyright \
    /usr/share/netprobe/prometheus/netprobe-rules.yml /usr/share/netprobe/prometheus/netprobe-rules.test.yml \
    /usr/share/netprobe/prometheus/grafana-netprobe.json; do
    check "the package installs $f" grep -qx "$f" "$WORK/files.txt"
done
# What the binary needs at start: libc, libm and Debian's libnl (kept shared, for its
# security updates); the Swift runtime, libstdc++ and libgcc are linked in; libcurl comes
# by dlopen on the first transfer, declared in Depends.
# (The dynamic loader itself, ld-linux-*, is named too: the linked-in libstdc++ uses its TLS.)
# Linked against glibc 2.31, where pthreads and dlopen live in libpthread and libdl (empty
# stubs from 2.34 on).
expect_eq "the installed binary's NEEDED libraries" "libc.so.6 libdl.so.2 libm.so.6 libnl-3.so.200 libnl-route-3.so.200 libpthread.so.0" \
    "$(readelf -d /usr/bin/netprobe | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | grep -v '^ld-linux' | sort | paste -sd' ')"
# No library search path of its own ($ORIGIN would make the loader look in /usr/bin first).
expect_eq "the installed binary's RUNPATH/RPATH" "" \
    "$(readelf -d /usr/bin/netprobe | sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p')"
check "Depends names libnl and libcurl" \
    sh -c 'dpkg-deb -f "$1" Depends | grep -q "libnl-3-200" && dpkg-deb -f "$1" Depends | grep -q "libcurl4"' _ "$DEB"
# The package is built against Debian 11 (glibc 2.31, libcurl 7.74): Depends says so, and
# the binary asks the loader for nothing newer (no symbol version above 2.31, no packed
# relocations, whose GLIBC_ABI_DT_RELR needs 2.36).
check "Depends asks for libc6 >= 2.31 and libcurl4 >= 7.74, Debian 11's" \
    sh -c 'dpkg-deb -f "$1" Depends | tr "," "\n" | grep -qx " *libc6 (>= 2.31)" &&
        dpkg-deb -f "$1" Depends | tr "," "\n" | grep -qx " *libcurl4 (>= 7.74)"' _ "$DEB"
check "the installed binary asks for no glibc newer than 2.31, and for no DT_RELR" \
    sh -c '! readelf -d /usr/bin/netprobe | grep -q "(RELR)" &&
        newest=$(readelf -V /usr/bin/netprobe | sed -n "s/.*Name: GLIBC_\([0-9.]*\) .*/\1/p" | sort -V | tail -n 1) &&
        [ "$(printf "%s\n" "$newest" 2.31 | sort -V | tail -n 1)" = 2.31 ] &&
        ! readelf -V /usr/bin/netprobe | grep -q GLIBC_ABI_' _
check "man -w netprobe finds the installed page" sh -c 'test "$(man -w netprobe)" = /usr/share/man/man1/netprobe.1.gz'
check "the bash completion registers itself" bash -c '. /usr/share/bash-completion/completions/netprobe && complete -p netprobe'
check "no unit is enabled (the admin's choice)" \
    sh -c '! find /etc/systemd/system -name "netprobe*" | grep .'
check "every Exec line runs /usr/bin/netprobe" \
    sh -c '! grep -h "netprobe " /lib/systemd/system/netprobe-*.service | grep "^Exec" | grep -v "/usr/bin/netprobe "'

check "systemd-analyze verify of the installed units" \
    systemd-analyze verify /lib/systemd/system/netprobe-watch.service /lib/systemd/system/netprobe-wait-online.service \
    /lib/systemd/system/netprobe-textfile.service
for unit in netprobe-watch netprobe-wait-online netprobe-textfile; do
    score=$(systemd-analyze security --offline=true "/lib/systemd/system/$unit.service" 2>/dev/null |
        sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
    check "$unit.service: systemd-analyze security exposure ${score:-?} <= 2.0" \
        awk -v s="${score:-99}" 'BEGIN { exit !(s <= 2.0) }'
done

# ---- the installed schemas, stock validators, no network ----------------------------------
S=/usr/share/netprobe/schemas
unshare -n /usr/bin/netprobe check --json >"$WORK/out.json" 2>"$WORK/out.err"
expect_eq "netprobe check --json in an empty namespace: offline (exit 1)" 1 $?
unshare -n /usr/bin/netprobe path --json >"$WORK/path.json" 2>>"$WORK/out.err"
CJS=/opt/netprobe-pytools/bin/check-jsonschema
if [ -x "$CJS" ]; then
    check "check-jsonschema --schemafile $S/report.schema.json out.json (no network)" \
        unshare -n -- "$CJS" --schemafile "$S/report.schema.json" "$WORK/out.json"
    check "check-jsonschema --schemafile $S/path.schema.json (no network)" \
        unshare -n -- "$CJS" --schemafile "$S/path.schema.json" "$WORK/path.json"
else
    not_ok "check-jsonschema is not installed at $CJS (scripts/install-deps test)"
fi
check "jsonschema -i out.json $S/report.schema.json (python3-jsonschema, no network)" \
    unshare -n -- /usr/bin/jsonschema -i "$WORK/out.json" "$S/report.schema.json"
check "jsonschema -i /etc/netprobe/probes.json $S/probes.schema.json" \
    unshare -n -- /usr/bin/jsonschema -i /etc/netprobe/probes.json "$S/probes.schema.json"

# ---- the installed binary as the units run it ------------------------------------------------
cat >"$WORK/loopback.json" <<'JSON'
{ "version": 1, "timeout": 5, "probe_timeout": 3, "quorum": 2,
  "probes": [
    { "name": "apple", "operator": "apple", "url": "http://127.0.0.1:8081/hotspot-detect.html",
      "expect": { "status": [200], "body": { "contains": "Success" } } },
    { "name": "google-204", "operator": "google", "url": "http://127.0.0.1:8081/generate_204",
      "expect": { "status": [204], "body": { "exact": "" } } } ] }
JSON
chmod 0755 "$WORK"
chmod 0644 "$WORK/loopback.json"
in_netns online -- setpriv --reuid 65534 --regid 65534 --clear-groups --inh-caps=-all --ambient-caps=-all \
    --bounding-set=-all --no-new-privs -- /usr/bin/python3 "$REPO/Tests/ecosystem/lib/unit-sandbox.py" \
    /usr/bin/netprobe check --json --config "$WORK/loopback.json" >"$WORK/unit.json" 2>"$WORK/unit.err"
status=$?
expect_eq "installed netprobe as the unit runs it (uid 65534, no capabilities, seccomp): online, exit 0" \
    "0 online" "$status $("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$WORK/unit.json" 2>&1)"
[ "$status" = 0 ] || sed 's/^/    /' "$WORK/unit.err"

# ---- upgrade keeps a changed conffile; purge leaves nothing ---------------------------------
sed -i 's/"timeout": *[0-9.]*/"timeout": 7/' /etc/netprobe/probes.json
cp /etc/netprobe/probes.json "$WORK/changed.json"
check "apt-get install --reinstall succeeds" apt-get install -y -qq --reinstall "$DEB"
check "a reinstall keeps the admin's changed /etc/netprobe/probes.json" cmp "$WORK/changed.json" /etc/netprobe/probes.json
if purge; then ok "apt-get purge netprobe"; else not_ok "apt-get purge failed"; sed 's/^/    /' "$WORK/purge.log"; fi
left=$(while read -r f; do [ -d "$f" ] || { [ -e "$f" ] || [ -L "$f" ]; } && [ ! -d "$f" ] && echo "$f"; done <"$WORK/files.txt")
expect_eq "purge removed every file the package had" "" "$left"
check "purge removed /etc/netprobe (the changed conffile too)" test ! -e /etc/netprobe
check "dpkg no longer knows netprobe" sh -c '! dpkg-query -W -f="\${Status}" netprobe 2>/dev/null | grep -q .'
netprobe_paths >"$WORK/after.txt"
check "no path named *netprobe* is left or new (outside the work trees)" diff "$WORK/before.txt" "$WORK/after.txt"
finish
