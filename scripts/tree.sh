#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make tree: the kernel tree as a git repository in the build folder: one
# base commit of Debian's pristine linux-source-6.12, then one commit per
# patch of patches/series.  Never destroys commits that are not exported.
. "$(dirname "$0")/common.sh"
if [ "${TREE_SYNC:-1}" = 0 ]; then
	say "TREE_SYNC=0: using $TREE as it is"
	exit 0
fi
with_lock

ver=$(pkg_version)
want=$(patches_hash)

# Commit the pristine tarball as the base of a new tree in $1.
make_base() {
	local dir=$1
	say "extracting $TARBALL ($SRCPKG $ver)"
	rm -rf "$dir" && mkdir -p "$dir"
	tar -xJf "$TARBALL" -C "$dir" --strip-components=1
	# Debian's .gitignore ignores everything at the top level (its
	# packaging repository keeps only debian/): drop that section, or new
	# files such as fs/fsblock.c would never be committed or exported.
	sed -i '/^# Debian packaging/,$d' "$dir/.gitignore"
	while tail -1 "$dir/.gitignore" | grep -qx '#\?'; do
		sed -i '$d' "$dir/.gitignore"
	done
	say "committing the base tree (about half a minute)"
	git -C "$dir" init -q -b fsblock
	TREE=$dir tgit add -A
	TREE=$dir tgit commit -q -m "Linux 6.12 from Debian $SRCPKG $ver" -m \
"Pristine source of the Debian package $SRCPKG, version $ver, with the
Debian-specific section of the top-level .gitignore removed (it ignores
every top-level path)."
	TREE=$dir tgit tag -f base >/dev/null
}

# Apply the patches of the series from index $1 (0-based) on.
apply_from() {
	local i=0 p n
	n=$(series_patches | wc -l)
	series_patches | while read -r p; do
		i=$((i + 1))
		[ $i -le "$1" ] && continue
		[ -f "$REPO/patches/$p" ] || die "patches/series names $p, which is missing"
		say "applying [$i/$n] $p"
		if ! tgit am -q --keep-cr --whitespace=nowarn "$REPO/patches/$p"; then
			tgit am --abort || true
			die "$p does not apply; the tree is left at the patch before it"
		fi
	done
}

# How many leading patches of the series the tree already has, unchanged.
common_prefix() {
	local i=0 c p
	mapfile -t commits < <(tgit rev-list --reverse base..HEAD)
	mapfile -t pats < <(series_patches)
	while [ $i -lt ${#commits[@]} ] && [ $i -lt ${#pats[@]} ]; do
		c=${commits[$i]}; p=${pats[$i]}
		cmp -s <(tgit format-patch "${FORMAT_PATCH_OPTS[@]}" --stdout -1 "$c") \
		       "$REPO/patches/$p" || break
		i=$((i + 1))
	done
	echo $i
}

if [ ! -d "$TREE/.git" ]; then
	make_base "$TREE.new"
	rm -rf "$TREE" && mv "$TREE.new" "$TREE"
	apply_from 0
	stamp_write "$(tgit rev-parse HEAD)" "$want" "$ver"
	say "tree ready at $TREE ($(series_patches | wc -l) patches)"
	exit 0
fi

# An existing tree: make sure nothing in it would be lost.
require_clean_tree
branch=$(tgit symbolic-ref -q --short HEAD || true)
# A check (scripts/check.sh) that was killed while it built a prefix
# left the tree detached on a commit of the branch: put it back.
if [ "$branch" != fsblock ] && [ -f "$BUILD/check-detached" ] &&
   tgit merge-base --is-ancestor HEAD fsblock 2>/dev/null; then
	say "the tree was left on a prefix by an interrupted check: back to 'fsblock'"
	tgit checkout -q fsblock && rm -f "$BUILD/check-detached"
	branch=$(tgit symbolic-ref -q --short HEAD || true)
fi
[ "$branch" = fsblock ] || die "the tree is not on its branch 'fsblock' (a bisect left over?):
  git -C $TREE checkout fsblock"

head=$(tgit rev-parse HEAD)
shead=$(stamp_get head)
if [ "$head" != "$shead" ] && ! tgit merge-base --is-ancestor "$head" "$shead" 2>/dev/null; then
	tgit log --oneline "${shead:-base}..HEAD" >&2 || tgit log --oneline base..HEAD >&2
	die "the tree has commits that are not in patches/ (above).
  Export them with 'make export' (then commit patches/), or drop them:
  git -C $TREE reset --hard ${shead:-base}"
fi

if [ "$head" = "$shead" ] && [ "$want" = "$(stamp_get patches)" ] &&
   [ "$ver" = "$(stamp_get version)" ]; then
	say "tree up to date ($TREE)"
	exit 0
fi

if [ "$ver" != "$(stamp_get version)" ]; then
	say "$SRCPKG changed ($(stamp_get version) -> $ver): rebuilding the tree"
	make_base "$TREE.new"
	rm -rf "$TREE" && mv "$TREE.new" "$TREE"
	apply_from 0
else
	keep=$(common_prefix)
	say "keeping $keep unchanged patches, re-applying the rest"
	tgit reset -q --hard "$(tgit rev-list --reverse base..HEAD | sed -n "${keep}p" | grep . || tgit rev-parse base)"
	apply_from "$keep"
fi
stamp_write "$(tgit rev-parse HEAD)" "$want" "$ver"
say "tree ready at $TREE ($(series_patches | wc -l) patches)"
