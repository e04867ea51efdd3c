#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: patch hygiene for every patch of the series.
#  1. scripts/checkpatch.pl: no ERROR and no WARNING.
#     The converted filesystems (fs/minix, fs/ext2) must not mention
#     buffer_head.
#  2. bisect build: every prefix of the series builds (the KUnit kernel's
#     configuration, so the debug set and the tests are compiled: vmlinux
#     for the whole series; for a shorter prefix, the directories the
#     series' C files are in, with none of the series' names left undefined
#     in their objects), and the C files a patch touches compile without
#     W=1 warnings.
#  3. no global symbol the series adds is already global elsewhere in the
#     tree, in any configuration (scripts/namecheck.sh).
#  4. a distribution-shaped kernel of the whole series builds, vmlinux and
#     modules, with no modpost warning (kconfig/distro.config).
#  5. Documentation/filesystems/fsblock builds with Sphinx, no warning.
#  6. kernel-doc -Wall has no warning in the files the series touches.
# Prefixes already built with the same configuration are remembered in
# $BUILD/check-ok and skipped, so a re-run only builds what changed.
. "$(dirname "$0")/common.sh"

setup_once
mkdir -p "$LOGS" "$CCACHE_DIR"
KBUILD=${KUNIT_BUILD:-$BUILD/kunit}
clog=$LOGS/check.log
: > "$clog"
bad=0

# The files a patch adds (new or renamed to) that MAINTAINERS gives no
# maintainer, as get_maintainer.pl reads it in the tree, which must be at
# the top of the series (where every added file that survives exists).
uncovered() {	# patch
	local f
	awk '/^diff --git /{ f = $4; sub(/^b\//, "", f) }
	     /^(new file mode|rename to )/{ print f }' "$1" | sort -u |
	while read -r f; do
		# Gone again later in the series: nothing to maintain.
		[ -n "$(tgit ls-tree --name-only fsblock -- "$f")" ] || continue
		[ -e "$TREE/$f" ] || die "the tree is not at the top of the series ($f missing)"
		(cd "$TREE" && ./scripts/get_maintainer.pl --no-git --no-git-fallback -f "$f" 2>/dev/null) |
			grep -q '(maintainer:' || printf '%s ' "$f"
	done
}

say "checkpatch on $(series_patches | wc -l) patches"
while read -r p; do
	# Debian's python3 first: its spdxcheck.py needs python3-ply and
	# python3-git, which another python3 on PATH may lack (and checkpatch
	# would then skip the SPDX check without saying so).
	out=$(cd "$TREE" && PATH=/usr/bin:/bin:$PATH ./scripts/checkpatch.pl --no-color \
		--ignore FILE_PATH_CHANGES "$REPO/patches/$p" 2>&1) || true
	if echo "$out" | grep -q 'Traceback'; then
		echo "$out" | grep -A3 Traceback >&2
		say "  FAIL $p: checkpatch's helper crashed"
		bad=1
		continue
	fi
	echo "$out" >> "$clog"
	tot=$(echo "$out" | grep -E '^total: ' | tail -1)
	# checkpatch's FILE_PATH_CHANGES only asks whether MAINTAINERS needs
	# updating for a new file: answer it.  A file the patch adds must have
	# a maintainer in MAINTAINERS (get_maintainer.pl, at the top of the
	# series), not only the open list.
	orphans=$(uncovered "$REPO/patches/$p")
	if [ -n "$orphans" ]; then
		say "  FAIL $p adds files no MAINTAINERS entry covers: $orphans"
		bad=1
	elif echo "$tot" | grep -q '^total: 0 errors, 0 warnings'; then
		say "  ok   $p"
	else
		say "  FAIL $p: ${tot:-checkpatch did not finish}"
		echo "$out" | grep -E -A4 '^(ERROR|WARNING):' | head -40 >&2
		bad=1
	fi
done < <(series_patches)

# The filesystems the series converts must not mention buffer_heads.
for d in fs/minix fs/ext2; do
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
# A prefix passed before with this configuration and this script (what it
# checks of a prefix may change) is not built again.
cfgsum=$(cat "$BUILD/check.config" "$0" | sha256sum | cut -c1-16)

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
# The directories of the C files the series touches in any patch: what a
# shorter prefix builds.  Every name the series defines is defined in them.
mapfile -t sdirs < <(tgit log --format= --name-only base..HEAD -- '*.c' |
	xargs -n1 dirname | sort -u)
# The series' names: what its objects define and use, tracepoints included.
series_names='(fsblock|mblock|fsb_ext|minix|ext2)_'
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
	# The whole series links vmlinux.  A shorter prefix builds the
	# series' directories only (a link of a KASAN kernel costs a minute,
	# a prefix of twenty patches twenty) and must leave none of the
	# series' names undefined in the objects of the C files it has, which
	# is what would stop the final link.
	# The series' directories this prefix has (a directory that comes
	# later has no Makefile yet, and its objects of a longer prefix are
	# not this one's).
	mapfile -t pdirs < <(tgit ls-tree -d -r --name-only "$c" -- "${sdirs[@]}" |
		grep -xF -f <(printf '%s\n' "${sdirs[@]}"))
	if [ "$i" -eq "$n" ]; then
		targets=(vmlinux)
	else
		targets=("${pdirs[@]/%//}")
	fi
	make -C "$TREE" O="$KBUILD" ARCH=x86_64 CC="ccache gcc" olddefconfig >> "$clog" 2>&1 &&
	make -C "$TREE" O="$KBUILD" ARCH=x86_64 CC="ccache gcc" -j"$JOBS" "${targets[@]}" >> "$clog" 2>&1 || ok=0
	heartbeat_stop
	if [ $ok -eq 0 ]; then
		grep -E 'error|warning:' "$clog" | tail -20 >&2
		say "  FAIL [$i/$n] does not build: $subj"
		bad=1
		break
	fi
	# The objects this prefix links: the members of its directories'
	# built-in archives, just rebuilt (objects a longer prefix left behind
	# are not in them).  None of the series' names may be undefined in
	# them (strong references only) unless one of them defines it as a
	# global, and none may be defined twice: what the link would refuse.
	# The whole series linked vmlinux: nothing to add.  (ar t names a
	# thin archive's members relative to the directory it runs in.)
	pobjs=()
	if [ "$i" -ne "$n" ]; then
		mapfile -t pobjs < <(for d in "${pdirs[@]}"; do
			[ -f "$KBUILD/$d/built-in.a" ] && (cd "$KBUILD" && ar t "$d/built-in.a")
		done | sort -u | sed "s|^|$KBUILD/|")
	fi
	undef= dup=
	if [ ${#pobjs[@]} -gt 0 ]; then
		defs=$(nm -g --defined-only "${pobjs[@]}" | awk 'NF == 3 { print $2, $3 }')
		undef=$(comm -23 \
			<(nm -u "${pobjs[@]}" | awk 'NF == 2 && $1 == "U" { print $2 }' | sort -u) \
			<(echo "$defs" | awk '{ print $2 }' | sort -u) | grep -E "$series_names" || true)
		# Weak definitions (V, W) may repeat; strong ones may not.
		dup=$(echo "$defs" | awk '$1 ~ /^[BDGRST]$/ { print $2 }' | sort | uniq -d |
			grep -E "$series_names" || true)
	fi
	if [ -n "$undef" ]; then
		say "  FAIL [$i/$n] does not link: undefined $(echo $undef): $subj"
		bad=1
		break
	fi
	if [ -n "$dup" ]; then
		say "  FAIL [$i/$n] does not link: defined twice $(echo $dup): $subj"
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

# 4. A distribution-shaped kernel of the whole series (kconfig/distro.config):
#    minix, ext2 and the KUnit suites as modules, so that modpost checks that
#    fsblock exports what they call; device-mapper's persistent-data built
#    in beside fsblock; event tracing.  vmlinux and modules, and no modpost
#    warning.  Remembered in $BUILD/check-ok like the prefixes.
if [ $bad -eq 0 ]; then
	dfrags=("$REPO/kconfig/distro.config")
	dkey="distro $(tgit rev-parse 'HEAD^{tree}') $(cat "${dfrags[@]}" | sha256sum | cut -c1-16)"
	if grep -qxF "$dkey" "$BUILD/check-ok"; then
		say "  built before: the distribution-shaped kernel"
	else
		say "  building the distribution-shaped kernel (modules, device-mapper, tracing)"
		if ! BASE=allnoconfig TARGETS="vmlinux modules" \
			bash "$REPO/qemu-integration/build-kernel.sh" \
			distro "${dfrags[@]}"; then
			say "  FAIL the distribution-shaped kernel does not build (log: $LOGS/build-distro.log)"
			bad=1
		elif grep -E '(WARNING|ERROR): modpost:' "$LOGS/build-distro.log" >&2; then
			say "  FAIL modpost warnings in the distribution-shaped kernel"
			bad=1
		else
			echo "$dkey" >> "$BUILD/check-ok"
		fi
	fi
fi

# 5. fsblock's documentation builds with Sphinx without a warning: only
#    Documentation/filesystems/fsblock (the whole book takes many minutes),
#    which is where the series' kernel-doc is pulled in.
if [ $bad -eq 0 ]; then
	dlog=$LOGS/htmldocs.log
	# From nothing: Sphinx reads only changed pages again, and would not
	# repeat the warnings of a page that did not change.
	rm -rf "$BUILD/docs"
	if ! make -C "$TREE" O="$BUILD/docs" SPHINXDIRS=filesystems/fsblock htmldocs \
		> "$dlog" 2>&1; then
		tail -20 "$dlog" >&2
		say "  FAIL the fsblock documentation does not build (log: $dlog)"
		bad=1
	# Sphinx's note that graphviz is missing is about the machine, not
	# the documentation (these pages have no graphs).
	elif grep -E 'WARNING|ERROR' "$dlog" | grep -v 'dot(1) not found' >&2; then
		say "  FAIL warnings in the fsblock documentation (log: $dlog)"
		bad=1
	else
		say "  ok   Documentation/filesystems/fsblock builds without a warning"
	fi
fi

# 6. The kernel-doc of every C file and header the series adds or changes
#    has no warning with -Wall (Sphinx above sees only the files its pages
#    pull in) that stock 6.12's version of the file does not have too: a
#    converted filesystem keeps its old comments (fs/ext2 has dozens).  A
#    warning is compared without its line number.  Not mm/: its warnings
#    are stock 6.12's.
kdoc_new() {	# file: its kernel-doc warnings that base's version lacks
	local f=$1 old
	old=$(mktemp)
	if tgit cat-file -e "base:$f" 2>/dev/null; then
		mkdir -p "$(dirname "$old.d/$f")"
		tgit show "base:$f" > "$old.d/$f"
		(cd "$old.d" && "$TREE/scripts/kernel-doc" -Wall -none "$f" 2>&1) |
			sed -E 's/:[0-9]+: /: /' | sort -u > "$old"
	fi
	(cd "$TREE" && ./scripts/kernel-doc -Wall -none "$f" 2>&1) |
		sed -E 's/:[0-9]+: /: /' | sort -u | comm -23 - "$old"
	rm -rf "$old" "$old.d"
}
if [ $bad -eq 0 ]; then
	mapfile -t kdfiles < <(tgit diff --name-only --diff-filter=AM base fsblock -- '*.c' '*.h' ':!mm')
	kd=$(for f in "${kdfiles[@]}"; do kdoc_new "$f"; done)
	if [ -n "$kd" ]; then
		echo "$kd" | head -20 >&2
		say "  FAIL kernel-doc -Wall warns"
		bad=1
	else
		say "  ok   kernel-doc -Wall: no new warning in the ${#kdfiles[@]} C files and headers the series touches"
	fi
fi

if [ $bad -ne 0 ]; then
	say "check FAILED (full output: $clog)"
	exit 1
fi
say "check passed: $n patches checkpatch-clean, every prefix builds, no W=1 warnings, no name clash, the distribution-shaped kernel and the documentation build, kernel-doc clean"
