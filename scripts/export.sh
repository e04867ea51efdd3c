#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make export: write the tree's commits (base..HEAD) back into patches/ and
# patches/series.  Exporting an unchanged tree changes no file.  The cover
# letter, patches/0000-cover-letter.patch, is written by hand and kept: it
# is not in the series.
. "$(dirname "$0")/common.sh"
with_lock

[ -d "$TREE/.git" ] || die "no tree at $TREE: run 'make tree' first"
[ "$(tgit symbolic-ref -q --short HEAD || true)" = fsblock ] ||
	die "the tree is not on its branch 'fsblock'"
require_clean_tree

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tgit format-patch -q "${FORMAT_PATCH_OPTS[@]}" -o "$tmp" base..HEAD >/dev/null

# The series, grouped by subsystem prefix of the subject.
# A filesystem's patches before the first fsblock patch are its fixes on
# buffer_heads, which do not need fsblock ($2: whether one came yet).
# fsblock patches after the documentation extend the core for ext2, whose
# conversion follows them ($3: whether the documentation came).
group_of() {
	case "$1" in
	fsblock:*fsb_extentmap*) echo "fsblock: the extent map, for ext2 (no user in this series)" ;;
	fsblock:*) if [ "$3" = yes ]; then echo "fsblock: what ext2 needs of the metadata cache"
		   else echo "fsblock core"; fi ;;
	mm:*|mm/*)		echo "mm: a fix the series needs, which can go in alone" ;;
	fsblock:*|fs:*|block:*)	echo "fsblock core" ;;
	minix:*|ext2:*)
		if [ "$2" = yes ]; then echo "${1%%:*} on fsblock"
		else echo "${1%%:*} on buffer_heads: fixes that do not need fsblock"; fi ;;
	Documentation:*|docs:*)	echo "documentation" ;;
	*)			echo "other" ;;
	esac
}
{
	echo "# fsblock for Linux 6.12 (Debian $SRCPKG $(pkg_version))."
	echo "# Apply in this order: quilt push -a, or git am in a git tree."
	last= seen=no docs=no
	for f in "$tmp"/*.patch; do
		[ -e "$f" ] || continue
		subj=$(sed -n 's/^Subject: \(\[PATCH\] \)\?//p' "$f" | head -1)
		case "$subj" in fsblock:*) seen=yes ;; esac
		g=$(group_of "$subj" "$seen" "$docs")
		case "$subj" in docs:*|Documentation:*) docs=yes ;; esac
		if [ "$g" != "$last" ]; then
			echo; echo "# $g"; last=$g
		fi
		basename "$f"
	done
} > "$tmp/series"

mkdir -p "$REPO/patches"
changed=0
for f in "$tmp"/*; do
	[ -e "$f" ] || continue
	b=$(basename "$f")
	if ! cmp -s "$f" "$REPO/patches/$b"; then
		cp "$f" "$REPO/patches/$b"; changed=$((changed + 1))
		say "wrote patches/$b"
	fi
done
for f in "$REPO"/patches/*.patch; do
	[ -e "$f" ] || continue
	[ "$(basename "$f")" = 0000-cover-letter.patch ] && continue
	if [ ! -e "$tmp/$(basename "$f")" ]; then
		rm -f "$f"; changed=$((changed + 1))
		say "removed patches/$(basename "$f")"
	fi
done
stamp_write "$(tgit rev-parse HEAD)" "$(patches_hash)" "$(pkg_version)"
say "exported $(tgit rev-list --count base..HEAD) patches, $changed files changed"
