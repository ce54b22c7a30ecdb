#!/bin/bash
# ecosystem-timeout: 1200
# `make release`'s binary on the oldest system it is made for, Debian 11 (glibc 2.31,
# libcurl 7.74), and on this one (Debian 12), the same checks on both:
#   - it asks the loader for no glibc symbol version newer than 2.31, and for no packed
#     relocations (GLIBC_ABI_DT_RELR, glibc 2.36's loader)
#   - `make dist`: the tarball's install.sh, run in the Debian 11 root, installs what
#     `make install` installs, and --uninstall removes it; the tarball's binary is the one run
#   - `--version` (in the root also without /proc); `path --json` and an offline check (exit 1)
#     in an empty network namespace
#   - in the lab, the open network (online, exit 0) and the redirect portal (portal with its
#     login URL, exit 2), and, as libcurl 7.74 has no CURLOPT_QUICK_EXIT, the black hole and
#     the blocked resolver (the deadline and the resolver cut-off hold)
# Debian 11 is a debootstrapped root (scripts/bullseye-root: minbase, libcurl4 and
# ca-certificates; made once, about a minute cold, and kept in .build/bullseye-root); the
# binary runs there in a chroot with the root's own glibc and libcurl, and the lab's
# resolv.conf and CA (Tests/ecosystem/lib/in-root). The binary is built here when the
# sources are newer (`make release`: a full build takes a few minutes), whatever
# NETPROBE_BIN says.
# shellcheck source=Tests/ecosystem/lib/common.sh
. "$(dirname "$0")/lib/common.sh"
RELEASE=$REPO/.build/release/netprobe
IN_ROOT=$REPO/Tests/ecosystem/lib/in-root

if ! make -C "$REPO" --no-print-directory release >"$WORK/release.log" 2>&1; then
    not_ok "make release"
    tail -n 30 "$WORK/release.log" | sed 's/^/    /'
    finish
fi
ok "make release"
if ! ROOT=$("$REPO/scripts/bullseye-root" "$REPO/.build/bullseye-root" 2>"$WORK/root.log"); then
    not_ok "the Debian 11 root (scripts/bullseye-root)"
    sed 's/^/    /' "$WORK/root.log"
    finish
fi
export NETPROBE_ROOT=$ROOT
VERSION=$("$REPO/scripts/version")

# ---- the tarball (make dist), installed by its install.sh in the root ------------------------
# Staged (DESTDIR) inside the root by the root's own sh and coreutils; the same files as
# `make install`. Its (stripped) binary is the one the root runs below.
DIST=netprobe-$VERSION-linux-$(uname -m)
if make -C "$REPO" --no-print-directory dist >"$WORK/dist.log" 2>&1; then
    ok "make dist"
else
    not_ok "make dist"
    sed 's/^/    /' "$WORK/dist.log"
    finish
fi
unpacked=$(mktemp -d "$ROOT/var/tmp/netprobe-dist.XXXXXX")
CLEANUP_DIRS="$unpacked"
trap 'rm -rf $CLEANUP_DIRS; cleanup_common' EXIT
tar -xzf "$REPO/$DIST.tar.gz" -C "$unpacked"
inside=${unpacked#"$ROOT"}
check "install.sh, run in the root, stages the tarball" \
    chroot "$ROOT" env DESTDIR="$inside/stage" sh "$inside/$DIST/install.sh" /usr/local
make -C "$REPO" --no-print-directory install DESTDIR="$WORK/make-install" INSTALL_BIN="$RELEASE" >"$WORK/install.log" 2>&1
expect_eq "install.sh installs what make install does" \
    "$(cd "$WORK/make-install" && find . -type f | sort | paste -sd' ')" \
    "$(cd "$unpacked/stage" && find . -type f | sort | paste -sd' ')"
expect_eq "the units name the binary under the prefix" \
    "$(cat "$WORK/make-install/usr/local/lib/systemd/system/"*)" "$(cat "$unpacked/stage/usr/local/lib/systemd/system/"*)"
check "install.sh --uninstall removes every file" sh -c \
    'chroot "$1" env DESTDIR="$2/stage" sh "$2/$3/install.sh" --uninstall /usr/local >/dev/null &&
     [ -z "$(find "$1$2/stage" -type f)" ]' _ "$ROOT" "$inside" "$DIST"
install -m 0755 "$unpacked/$DIST/bin/netprobe" "$ROOT/usr/local/bin/netprobe"

# ---- what the binary asks of the loader ------------------------------------------------------
versions=$(readelf -V "$RELEASE" | sed -n 's/.*Name: \(GLIBC_[^ ]*\).*/\1/p' | sort -u)
newest=$(printf '%s\n' "$versions" | sed -n 's/^GLIBC_\([0-9.]*\)$/\1/p' | sort -V | tail -n 1)
check "the binary asks for no glibc newer than 2.31 (newest: $newest)" \
    sh -c '[ "$(printf "%s\n" "$1" 2.31 | sort -V | tail -n 1)" = 2.31 ]' _ "$newest"
check "the binary asks for no glibc-only ABI (GLIBC_ABI_*: $(printf '%s\n' "$versions" | grep -c ABI))" \
    sh -c '! printf "%s\n" "$1" | grep -q "^GLIBC_ABI_"' _ "$versions"
check "no packed relocations (DT_RELR)" sh -c '! readelf -d "$1" | grep -q "(RELR)"' _ "$RELEASE"
curl_version=$(chroot "$ROOT" dpkg-query -W -f '${Version}' libcurl4)
glibc_version=$(chroot "$ROOT" dpkg-query -W -f '${Version}' libc6)
check "the root is Debian 11: glibc 2.31 ($glibc_version), libcurl 7.74 ($curl_version)" \
    sh -c 'case "$1 $2" in 2.31-*" "7.74.0-*) ;; *) exit 1 ;; esac' _ "$glibc_version" "$curl_version"

# ---- the same checks, in the root and here ---------------------------------------------------
for where in debian11 here; do
    if [ "$where" = debian11 ]; then bin=$IN_ROOT; else bin=$RELEASE; fi
    expect_eq "$where: --version" "$VERSION" "$(unshare -n "$bin" --version 2>&1)"
    if [ "$where" = debian11 ]; then
        # A bare chroot has no /proc: the arguments are still read, not taken for a check's.
        expect_eq "$where: --version without /proc" "$VERSION" \
            "$(unshare -n env NETPROBE_IN_ROOT_PROC=no "$bin" --version 2>&1)"
    fi
    out=$(unshare -n "$bin" path --json 2>"$WORK/path.err")
    status=$?
    expect_eq "$where: path --json in an empty network namespace exits 0" 0 "$status"
    check "$where: path --json lists lo and no default route" "$PY" -c '
import json, sys
r = json.loads(sys.argv[1])
assert [i["name"] for i in r["interfaces"]] == ["lo"], r["interfaces"]
assert r["default_routes"] == [], r["default_routes"]' "$out"
    out=$(unshare -n "$bin" check --json 2>"$WORK/check.err")
    status=$?
    expect_eq "$where: an offline check exits 1" 1 "$status"
    check "$where: offline, no-default-route, nothing sent" "$PY" -c '
import json, sys
r = json.loads(sys.argv[1])
assert (r["verdict"], r["reason"]) == ("offline", "no-default-route"), (r["verdict"], r["reason"])
assert all(p["outcome"] == "skipped" for p in r["probes"]), r["probes"]' "$out"
    if NETPROBE_BIN=$bin "$REPO/lab/test" open portal-redirect blackhole dns-resolver-blocked \
            >"$WORK/lab-$where.log" 2>&1; then
        ok "$where: lab open (online), portal-redirect (portal, its URL), blackhole, dns-resolver-blocked"
    else
        not_ok "$where: lab scenarios"
        sed 's/^/    /' "$WORK/lab-$where.log"
    fi
done
finish
