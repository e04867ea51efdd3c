#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: patch hygiene for every patch of the series.
#  1. scripts/checkpatch.pl: no ERROR and no WARNING.
#     The converted filesystems (fs/minix) must not mention buffer_head.
#  2. bisect build: every prefix of the series builds vmlinux (the KUnit kernel's
#     configuration, so the debug set and the tests are compiled), and the
#     C files a patch touches compile without W=1 warnings.
#  3. no global symbol the series adds is already global elsewhere in the
#     tree, in any configuration (scripts/namecheck.sh).
# Prefixes already built with the same configuration are remembered in
# $BUILD/check-ok and skipped, so a re-run only builds what changed.
. "$(dirname "$0")/common.sh"

setup_once
mkdir -p "$LOGS" "$CCACHE_DIR"
KBUILD=${KUNIT_BUILD:-$BUILD/kunit}
clog=$LOGS/check.log
: > "$clog"
bad=0

say "checkpatch on $(series_patches | wc -l) patches"
while read -r p; do
	# Debian's python3 first: its spdxcheck.py needs python3-ply and
	# python3-git, which another python3 on PATH may lack (and checkpatch
	# would then skip the SPDX check without saying so).
	out=$(cd "$TREE" && PATH=/usr/bin:/bin:$PATH ./scripts/checkpatch.pl --no-color \
		"$REPO/patches/$p" 2>&1) || true
	if echo "$out" | grep -q 'Traceback'; then
		echo "$out" | grep -A3 Traceback >&2
		say "  FAIL $p: checkpatch's helper crashed"
		bad=1
		continue
	fi
	echo "$out" >> "$clog"
	tot=$(echo "$out" | grep -E '^total: ' | tail -1)
	if echo "$tot" | grep -q '^total: 0 errors, 0 warnings'; then
		say "  ok   $p"
	else
		say "  FAIL $p: ${tot:-checkpatch did not finish}"
		echo "$out" | grep -E -A4 '^(ERROR|WARNING):' | head -40 >&2
		bad=1
	fi
done < <(series_patches)

# The filesystems the series converts must not mention buffer_heads.
for d in fs/minix; do
	if hits=$(tgit grep -n buffer_head fsblock -- "$d"); then
		echo "$hits" | head -20 >&2
		say "  FAIL $d still mentions buffer_head"
		bad=1
	else
		say "  ok   no buffer_head in $d"
	fi
done

# The builds take the build lock (checkpatch and the grep above read only
# the patches and git's objects).
with_lock

# The configuration every prefix is built with: the KUnit kernel's, made
# by kunit.py itself at the top of the series.
( cd "$TREE" && python3 tools/testing/kunit/kunit.py config --arch=x86_64 \
	--build_dir="$KBUILD" "${KUNIT_CONFIGS[@]}" ) >> "$clog" 2>&1 ||
	{ tail -20 "$clog" >&2; die "kunit.py config failed"; }
cp "$KBUILD/.config" "$BUILD/check.config"
cfgsum=$(sha256sum < "$BUILD/check.config" | cut -c1-16)

# The prefixes are checked out in the tree itself.  A check that is
# killed (SIGKILL, a cut session) cannot run its trap: the marker tells
# the next "make tree" that the detached HEAD is ours to put back.
restore() {
	if tgit checkout -q fsblock 2>/dev/null; then rm -f "$BUILD/check-detached"; fi
}
trap restore EXIT
echo "$$" > "$BUILD/check-detached"
mapfile -t commits < <(tgit rev-list --reverse base..HEAD)
n=${#commits[@]}
touch "$BUILD/check-ok"
# The whole series first: its configuration is the integration kernel's,
# built just before, so ccache has every object; each shorter prefix then
# recompiles only what its patches change.
for i in "$n" $(seq $((n - 1))); do
	c=${commits[i - 1]}
	key="$(tgit rev-parse "$c^{tree}") $cfgsum"
	subj=$(tgit log -1 --format=%s "$c")
	if grep -qxF "$key" "$BUILD/check-ok"; then
		say "  built before [$i/$n] $subj"
		continue
	fi
	say "  building [$i/$n] $subj"
	tgit checkout -q --detach "$c"
	cp "$BUILD/check.config" "$KBUILD/.config"
	# A cold first build takes about 11 minutes: show that it moves.
	heartbeat_start 'echo "  $(grep -c "^  CC " "$clog") files compiled so far"'
	ok=1
	make -C "$TREE" O="$KBUILD" ARCH=x86_64 CC="ccache gcc" olddefconfig >> "$clog" 2>&1 &&
	make -C "$TREE" O="$KBUILD" ARCH=x86_64 CC="ccache gcc" -j"$JOBS" vmlinux >> "$clog" 2>&1 || ok=0
	heartbeat_stop
	if [ $ok -eq 0 ]; then
		grep -E 'error|warning:' "$clog" | tail -20 >&2
		say "  FAIL [$i/$n] does not build: $subj"
		bad=1
		break
	fi
	# W=1 on the C files this patch touches that this configuration builds.
	objs=()
	while read -r f; do
		[ -f "$KBUILD/${f%.c}.o" ] && objs+=("${f%.c}.o")
	done < <(tgit diff --name-only --diff-filter=AM "$c^" "$c" -- '*.c')
	if [ ${#objs[@]} -gt 0 ]; then
		w=$(make -C "$TREE" O="$KBUILD" ARCH=x86_64 CC="ccache gcc" W=1 "${objs[@]}" 2>&1 |
		    tee -a "$clog" | grep -E 'warning:|error:' || true)
		if [ -n "$w" ]; then
			echo "$w" | head -20 >&2
			say "  FAIL [$i/$n] W=1 warnings in ${objs[*]}"
			bad=1
			break
		fi
	fi
	# 3. The whole series' objects are here only now, before the shorter
	#    prefixes replace them: no global name it adds may be a global name
	#    elsewhere in the tree.  Its key below is written only if this
	#    passed, so a whole series "built before" passed it too.
	if [ "$i" -eq "$n" ] && ! bash "$REPO/scripts/namecheck.sh" "$KBUILD" "$c"; then
		bad=1
		break
	fi
	echo "$key" >> "$BUILD/check-ok"
done
restore
trap - EXIT

if [ $bad -ne 0 ]; then
	say "check FAILED (full output: $clog)"
	exit 1
fi
say "check passed: $n patches checkpatch-clean, every prefix builds, no W=1 warnings, no name clash"
