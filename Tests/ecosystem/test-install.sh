#!/bin/bash
# `make install` / `make uninstall` into a temporary DESTDIR, with the default PREFIX
# and with another one: the exact set of files, the installed binary run with the
# installed probe set, the installed probe set checked against the installed schema,
# `man -l` of the installed page, the completions' syntax (bash; zsh and fish only when
# installed), the systemd units pointing at the installed binary, a user's modified
# /etc/netprobe/probes.json surviving a second install and the uninstall, and an
# uninstall leaving no other file behind.
# shellcheck source=Tests/ecosystem/lib/common.sh
. "$(dirname "$0")/lib/common.sh"
require_binary

# make_install TARGET DESTDIR [PREFIX]: the test never builds, it installs the binary under test.
make_install() {
    local target=$1 dest=$2 prefix=${3:-}
    make -C "$REPO" --no-print-directory "$target" DESTDIR="$dest" INSTALL_BIN="$NETPROBE" \
        ${prefix:+PREFIX="$prefix"} >"$WORK/make-$target.log" 2>&1
}

files_under() { (cd "$1" && find . \( -type f -o -type l \) | sed 's#^\./#/#' | sort); }

# expected_files PREFIX: what install must put, and nothing else.
expected_files() {
    local prefix=$1 f
    {
        echo "/etc/netprobe/probes.json"
        echo "$prefix/bin/netprobe"
        echo "$prefix/share/man/man1/netprobe.1"
        echo "$prefix/share/bash-completion/completions/netprobe"
        echo "$prefix/share/zsh/site-functions/_netprobe"
        echo "$prefix/share/fish/vendor_completions.d/netprobe.fish"
        echo "$prefix/share/netprobe/probes.json"
        for f in "$REPO"/schemas/*.schema.json; do echo "$prefix/share/netprobe/schemas/$(basename "$f")"; done
        for f in netprobe-rules.yml netprobe-rules.test.yml grafana-netprobe.json; do echo "$prefix/share/netprobe/prometheus/$f"; done
        for f in "$REPO"/systemd/*.service "$REPO"/systemd/*.timer; do
            [ -e "$f" ] && echo "$prefix/lib/systemd/system/$(basename "$f")"
        done
    } | sed 's#^\./#/#' | sort
}

# ---------------------------------------------------------------- default PREFIX
DEST=$WORK/dest
P=/usr/local
if make_install install "$DEST"; then ok "make install (PREFIX default, DESTDIR=$DEST)"; else
    not_ok "make install failed"
    cat "$WORK/make-install.log"
    finish
fi
check "install put exactly the expected files" diff <(expected_files $P) <(files_under "$DEST")
check "the binary is executable (0755)" test "$(stat -c %a "$DEST$P/bin/netprobe")" = 755
check "the installed probe set is the repository's" cmp "$REPO/probes.json" "$DEST/etc/netprobe/probes.json"
check "the installed man page is the repository's" cmp "$REPO/man/netprobe.1" "$DEST$P/share/man/man1/netprobe.1"

expect_eq "installed binary: --version" "$("$NETPROBE" --version)" "$("$DEST$P/bin/netprobe" --version 2>&1)"
check "installed binary: config check of the installed probes.json" \
    sh -c 'out=$("$1" config check "$2") && case $out in *": ok: "*) ;; *) echo "$out"; exit 1 ;; esac' - \
    "$DEST$P/bin/netprobe" "$DEST/etc/netprobe/probes.json"
check "installed probes.json validates against the installed schema (python3-jsonschema)" \
    "$PY" "$REPO/scripts/validate-json" "$DEST$P/share/netprobe/schemas/probes.schema.json" "$DEST/etc/netprobe/probes.json"

# man-db renders the installed page, without a single warning from groff.
man -l "$DEST$P/share/man/man1/netprobe.1" >"$WORK/man.txt" 2>"$WORK/man.err"
expect_eq "man -l renders the installed page (exit status)" 0 $?
check "man -l printed no warning" test ! -s "$WORK/man.err"
check "the rendered page has NAME, SYNOPSIS and EXIT STATUS" \
    sh -c 'grep -q "^NAME" "$1" && grep -q "^SYNOPSIS" "$1" && grep -q "^EXIT STATUS" "$1"' - "$WORK/man.txt"

check "bash -n accepts the bash completion" bash -n "$DEST$P/share/bash-completion/completions/netprobe"
check "the bash completion registers itself for netprobe" \
    bash -c '. "$1" && complete -p netprobe' - "$DEST$P/share/bash-completion/completions/netprobe"
if command -v zsh >/dev/null; then
    check "zsh -n accepts the zsh completion" zsh -n "$DEST$P/share/zsh/site-functions/_netprobe"
else
    ok "zsh is not installed: its completion is checked by test-completions.sh's content checks only"
fi
if command -v fish >/dev/null; then
    check "fish -n accepts the fish completion" fish -n "$DEST$P/share/fish/vendor_completions.d/netprobe.fish"
else
    ok "fish is not installed: its completion is checked by test-completions.sh's content checks only"
fi

# systemd units: every Exec line runs the installed binary; no other netprobe path is left.
for unit in "$DEST$P"/lib/systemd/system/*; do
    [ -e "$unit" ] || continue
    name=$(basename "$unit")
    check "$name: ExecStart runs $P/bin/netprobe" grep -q "^ExecStart=.*$P/bin/netprobe " "$unit"
    check "$name: no other netprobe binary path in it" \
        sh -c '! grep -o "[^ =]*/bin/netprobe" "$1" | grep -vx "$2/bin/netprobe"' - "$unit" "$P"
done

# A user's probe set survives a second install and the uninstall.
"$PY" -c 'import json, sys
path = sys.argv[1]; config = json.load(open(path)); config["timeout"] = 7
json.dump(config, open(path, "w"), indent=2)' "$DEST/etc/netprobe/probes.json"
cp "$DEST/etc/netprobe/probes.json" "$WORK/users.json"
check "a second make install succeeds" make_install install "$DEST"
check "a second install keeps the user's modified probes.json" cmp "$WORK/users.json" "$DEST/etc/netprobe/probes.json"
check "and says so" grep -q "kept your" "$WORK/make-install.log"
check "the shipped probe set is still at $P/share/netprobe/probes.json" cmp "$REPO/probes.json" "$DEST$P/share/netprobe/probes.json"
check "make uninstall succeeds" make_install uninstall "$DEST"
expect_eq "uninstall leaves only the user's modified probes.json" "/etc/netprobe/probes.json" "$(files_under "$DEST")"
check "that file is untouched" cmp "$WORK/users.json" "$DEST/etc/netprobe/probes.json"

# ---------------------------------------------------------------- another PREFIX
DEST2=$WORK/dest2
P2=/opt/np
check "make install PREFIX=$P2" make_install install "$DEST2" "$P2"
check "install put exactly the expected files under $P2" diff <(expected_files $P2) <(files_under "$DEST2")
for unit in "$DEST2$P2"/lib/systemd/system/*; do
    [ -e "$unit" ] || continue
    check "$(basename "$unit"): ExecStart runs $P2/bin/netprobe" grep -q "^ExecStart=.*$P2/bin/netprobe " "$unit"
done
check "make uninstall PREFIX=$P2" make_install uninstall "$DEST2" "$P2"
expect_eq "uninstall of an unmodified install leaves no file" "" "$(files_under "$DEST2")"
check "and removes /etc/netprobe" test ! -e "$DEST2/etc/netprobe"
finish
