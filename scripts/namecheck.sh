#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# namecheck.sh OBJDIR COMMIT: no global symbol the series (base..COMMIT)
# adds is already a global symbol elsewhere in the tree, in any
# configuration.  A kernel that builds both (FSBLOCK=y with
# DM_PERSISTENT_DATA=y, say) would not link, and no configuration the
# project builds would show it.
#
# The series' names come from the objects, in OBJDIR, of the C files it
# adds or changes (nm on the build of COMMIT); a name that the base version
# of its own source file already defines or uses is not the series'.  The
# rest of the tree is read from the base commit with Universal Ctags
# (functions, prototypes, variables, extern declarations; static ones left
# out), the kernel's own C and headers only (not tools/ or scripts/, which
# are user space).  Not seen: globals made by macros (DEFINE_MUTEX, ...) and
# assembler symbols.
. "$(dirname "$0")/common.sh"

objdir=${1:-} commit=${2:-}
{ [ -d "$objdir" ] && [ -n "$commit" ]; } || die "usage: namecheck.sh OBJDIR COMMIT"
ctags --version 2>/dev/null | grep -q 'Universal Ctags' ||
	die "namecheck: needs Universal Ctags (Debian's universal-ctags)"

# git grep and friends: 1 means "nothing found", more is an error.
gg() {
	local rc=0
	tgit "$@" || rc=$?
	[ $rc -le 1 ] || die "namecheck: git $* failed ($rc)"
	return $rc
}

cfiles=$(gg diff --name-only base "$commit" -- '*.c')
names=() n=0
for f in $cfiles; do
	o=$objdir/${f%.c}.o
	[ -f "$o" ] || continue
	n=$((n + 1))
	# Global names the object defines, without what the compiler and
	# kbuild add (prefix/CFI stubs, export tables, initcalls, parameters).
	for s in $(nm -g --defined-only "$o" | awk 'NF == 3 && $2 ~ /^[BDGRSTVW]$/ { print $3 }' |
		   grep -vE '^(__pfx_|__cfi_|__ksymtab_|__kstrtab|__export_symbol_|__UNIQUE_ID|__initcall|__param_|__mod_|init_module$|cleanup_module$|__this_module$)' || true); do
		gg grep -qw -e "$s" base -- "$f" > /dev/null || names+=("$s")
	done
done
[ $n -gt 0 ] || die "namecheck: none of the series' objects is in $objdir"
[ ${#names[@]} -gt 0 ] || die "namecheck: found no global name of the series in its $n objects"
mapfile -t names < <(printf '%s\n' "${names[@]}" | sort -u)

# Files of the base tree that mention one of them at all.
pats=()
for s in "${names[@]}"; do pats+=(-e "$s"); done
rc=0
files=$(tgit grep -lwF "${pats[@]}" base -- '*.c' '*.h' ':!tools' ':!scripts') || rc=$?
[ $rc -le 1 ] || die "namecheck: git grep failed ($rc)"
files=$(echo "$files" | sed -e 's/^base://' -e '/^$/d')
if [ -z "$files" ]; then
	say "  ok   namecheck: none of the series' ${#names[@]} global names occurs elsewhere in the tree"
	exit 0
fi

# Of those, the ones that define or declare one as a global.  Headers are
# read as C (Universal Ctags takes .h for C++, where it does not report
# "static").
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086
tgit archive base -- $files | tar -x -C "$tmp" || die "namecheck: cannot read the base files"
re="^($(printf '%s\n' "${names[@]}" | paste -sd'|'))\$"
# shellcheck disable=SC2086
tags=$(cd "$tmp" && ctags -x --langmap=C:+.h --languages=C --c-kinds=fpvx \
	--fields-C=+'{properties}' --_xformat='%N|%K|%F:%n|%{C.properties}|%C' $files) ||
	die "namecheck: ctags failed"
bad=$(echo "$tags" | awk -F'|' -v re="$re" '$1 ~ re && $4 !~ /static/ &&
	$5 !~ /(^|[^A-Za-z0-9_])static([^A-Za-z0-9_]|$)/ { printf "    %s: %s %s\n", $3, $2, $1 }')
if [ -n "$bad" ]; then
	say "  FAIL namecheck: global names of the series that the tree already has:"
	echo "$bad" >&2
	exit 1
fi
say "  ok   namecheck: ${#names[@]} global names of the series, none a global elsewhere ($(echo "$files" | wc -l) files mention one)"
