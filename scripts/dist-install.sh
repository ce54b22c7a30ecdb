#!/bin/sh
# Installs netprobe from this unpacked tarball (`make dist`), on any x86-64 Linux with
# glibc 2.31 or newer (Debian 11, Ubuntu 20.04, RHEL 9, Amazon Linux 2023 and later; tested on
# Debian 11 and 12):
#
#   sudo ./install.sh                   everything under /usr/local
#   sudo ./install.sh /usr              ... or under another prefix
#   DESTDIR=/tmp/stage ./install.sh     staged, for a package of your own
#   sudo ./install.sh --uninstall [PREFIX]
#
# It installs what `make install` does: PREFIX/bin/netprobe, its man page, bash, zsh and
# fish completions, the systemd units (PREFIX/lib/systemd/system, not enabled or started,
# pointing at PREFIX/bin/netprobe), the JSON Schemas, the Prometheus rules and Grafana
# dashboard and the shipped probe set (PREFIX/share/netprobe/), and /etc/netprobe/probes.json
# only when there is none: a file of yours is never overwritten, and --uninstall removes it
# only while it is unchanged. Each file it writes or removes is printed.
#
# At run time netprobe needs glibc 2.31 or newer, and libcurl 7.74 or newer (libcurl.so.4:
# Debian's and Ubuntu's libcurl4, RHEL's libcurl) when it sends its first probe;
# ca-certificates for HTTPS probes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
action=install
if [ "${1:-}" = --uninstall ]; then action=uninstall; shift; fi
case "${1:-}" in -h | --help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;; esac
prefix=${1:-/usr/local}
dest=${DESTDIR:-}
conf=$dest/etc/netprobe/probes.json
shipped=$here/share/netprobe/probes.json

# Every file of the tarball's bin/, share/ and lib/, relative to it: what goes under PREFIX.
files() { (cd "$here" && find bin share lib -type f | sort); }

if [ "$action" = uninstall ]; then
    for file in $(files); do
        [ -e "$dest$prefix/$file" ] && { echo "rm $dest$prefix/$file"; rm -f "$dest$prefix/$file"; }
    done
    if [ -e "$conf" ]; then
        if cmp -s "$shipped" "$conf"; then echo "rm $conf"; rm -f "$conf"; rmdir "$(dirname "$conf")" 2>/dev/null || true
        else echo "install.sh: kept your modified $conf"; fi
    fi
    rmdir "$dest$prefix/share/netprobe/schemas" "$dest$prefix/share/netprobe/prometheus" \
        "$dest$prefix/share/netprobe" 2>/dev/null || true
    exit 0
fi

for file in $(files); do
    target=$dest$prefix/$file
    mode=0644
    case $file in bin/*) mode=0755 ;; esac
    install -d "$(dirname "$target")"
    case $file in
        lib/systemd/system/*)
            # The units name the binary as installed under /usr/local; here, under PREFIX.
            sed "s#/usr/local/bin/netprobe#$prefix/bin/netprobe#g" "$here/$file" >"$target.tmp"
            chmod "$mode" "$target.tmp"
            mv "$target.tmp" "$target"
            ;;
        *) install -m "$mode" "$here/$file" "$target" ;;
    esac
    echo "$target"
done
if [ ! -e "$conf" ]; then
    install -d "$(dirname "$conf")"
    install -m 0644 "$shipped" "$conf"
    echo "$conf"
elif ! cmp -s "$shipped" "$conf"; then
    echo "install.sh: kept your $conf; the shipped set is $prefix/share/netprobe/probes.json"
fi
