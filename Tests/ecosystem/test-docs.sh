#!/bin/bash
# The man page, checked by real tools and against the binary's own help: mandoc lint
# clean; every command netprobe has is described; every option `netprobe help COMMAND`
# shows is documented as an option (.Fl) in the man page; and every option the man
# page's SYNOPSIS, COMMANDS and OPTIONS sections name exists.
# shellcheck source=Tests/ecosystem/lib/common.sh
. "$(dirname "$0")/lib/common.sh"
require_binary
MAN=$REPO/man/netprobe.1

check "mandoc -T lint -W warning is clean" \
    sh -c 'out=$(mandoc -T lint -W warning "$1" 2>&1) && [ -z "$out" ] || { echo "$out"; exit 1; }' - "$MAN"

section() { sed -n "/^\.Sh $1\$/,/^\.Sh /p" "$MAN"; }

# Commands: every subcommand of `netprobe help` (and `config`'s) is in SYNOPSIS and COMMANDS.
commands=$("$NETPROBE" help | sed -n '/^SUBCOMMANDS:/,/^$/p' | grep -oE '^  [a-z]+' | tr -d ' ')
[ -n "$commands" ] || not_ok "could not read the subcommands from netprobe help"
for command in $commands; do
    [ "$command" = config ] && command="config check"
    for where in SYNOPSIS COMMANDS; do
        if section "$where" | grep -qE "(^\.| )Cm $command( |\$)"; then
            ok "$where describes '$command'"
        else
            not_ok "the man page's $where does not describe '$command' (.Cm $command)"
        fi
    done
done

# Options: each one `help` shows must be documented as .Fl somewhere in the page.
documented_as_option() { grep -qE -- "(^\.| )Fl ${1#-}( |\$)" "$MAN"; }  # mdoc: .Fl -name, .It Fl i , Fl -name
all_options=""
for command in check path wait watch report "config check"; do
    # shellcheck disable=SC2086 # "config check" is two words on purpose
    for option in $(help_options $command); do
        all_options="$all_options $option"
        if documented_as_option "$option"; then
            ok "netprobe $command $option is in the man page"
        else
            not_ok "netprobe $command $option (from 'netprobe help $command') is not documented in the man page"
        fi
    done
done

# And the other way: an option the man page offers must exist.
for option in $( { section SYNOPSIS; section COMMANDS; section OPTIONS; } |
    grep -oE '(^\.| )Fl [-A-Za-z0-9]+' | awk '{ print "-" $2 }' | sort -u); do
    case " $all_options " in
        *" $option "*) ok "man page option $option exists" ;;
        *) not_ok "the man page documents $option, which no command accepts" ;;
    esac
done
finish
