#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-kernel.sh NAME FRAGMENT...: build an integration kernel from the
# fragments into $BUILD/int-NAME, incrementally.  The configuration is
# made the way kunit.py makes the KUnit kernel's: the fragments become
# .config and "make olddefconfig" gives every other symbol its default.
# kunit/args lists the integration fragment too, so the KUnit kernel and
# the integration kernels differ by a few symbols only, compile with the
# same flags, and ccache serves each build most of the others' objects.
# Stops if a line of a fragment did not make it into the final .config
# (a symbol that does not exist, or whose dependencies are not met).
# TARGETS (default bzImage) are the make targets: make check's
# distribution-shaped kernel builds "vmlinux modules".  BASE=allnoconfig
# starts from allnoconfig with the fragments forced (KCONFIG_ALLCONFIG)
# instead of every other symbol's default.
. "$(dirname "$0")/../scripts/common.sh"

name=$1; shift
frags=()
for f in "$@"; do frags+=("$(realpath "$f")"); done
set -- "${frags[@]}"
O=$BUILD/int-$name
C=$BUILD/int-$name.config
mkdir -p "$O" "$C" "$LOGS" "$CCACHE_DIR"
blog=$LOGS/build-$name.log
# ARCH=x86_64 as kunit.py and make check say it: the header of .config and
# autoconf.h names the architecture, and a header that differs by a byte
# costs every compile its ccache direct-mode hit in the other build.
mk() { make -C "$TREE" ARCH=x86_64 CC="ccache gcc" "$@"; }

# Make the configuration in a side folder; touch the build's .config only
# if it changed, so that an unchanged kernel is not rebuilt.
if [ "${BASE:-}" = allnoconfig ]; then
	cat "$@" > "$C/allno.config"
	mk O="$C" KCONFIG_ALLCONFIG="$C/allno.config" allnoconfig >"$blog" 2>&1
else
	{ cat "$@" > "$C/.config" && mk O="$C" olddefconfig; } >"$blog" 2>&1
fi ||
	{ tail -5 "$blog" >&2; die "$name: configuration failed; log: $blog"; }
# What each symbol must be: the last fragment that names it decides.
declare -A want from
for f in "$@"; do
	while IFS= read -r l; do
		case "$l" in
		CONFIG_*=*)	sym=${l%%=*} ;;
		"# CONFIG_"*" is not set")
				sym=${l#\# }; sym=${sym%% *} ;;
		*)		continue ;;
		esac
		want[$sym]=$l from[$sym]=$f
	done < "$f"
done
bad=0
for sym in "${!want[@]}"; do
	l=${want[$sym]}
	case "$l" in
	CONFIG_*)	grep -qxF "$l" "$C/.config" || { say "$name: '$l' (${from[$sym]}) not in .config"; bad=1; } ;;
	*)		! grep -q "^$sym=" "$C/.config" || { say "$name: '$l' (${from[$sym]}) not honoured"; bad=1; } ;;
	esac
done
[ $bad -eq 0 ] || die "the $name kernel config lacks options its fragments ask for (see above)"
cmp -s "$C/.config" "$O/.config" || cp "$C/.config" "$O/.config"

say "building the $name kernel in $O (log: $blog)"
# The files compiled so far (the objects in $O include earlier builds').
heartbeat_start 'echo "$name kernel: $(grep -c "^  CC " "$blog") files compiled so far"'
rc=0
# shellcheck disable=SC2086
mk O="$O" -j"$JOBS" ${TARGETS:-bzImage} >>"$blog" 2>&1 || rc=$?
heartbeat_stop
if [ $rc -ne 0 ]; then
	grep -E 'error|Error' "$blog" | head -20 >&2
	die "the $name kernel failed to build; log: $blog"
fi
if [ -n "${TARGETS:-}" ]; then say "$name kernel built ($TARGETS) in $O"
else say "$name kernel ready: $O/arch/x86/boot/bzImage"; fi
