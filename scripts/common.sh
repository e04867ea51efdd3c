# SPDX-License-Identifier: GPL-2.0
# Shared settings and helpers for the fsblock scripts.  Sourced, not run.
#
# Every path can be overridden from the environment (the Makefile passes
# its variables through), so that a developer can keep several trees.

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The build folder lives outside the clone by default, so that a fresh
# clone (CI) reuses the extracted tree, the kernel objects and ccache.
BUILD=${BUILD:-/var/tmp/fsblock-build}
TREE=${TREE:-$BUILD/linux}
CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache}
LOGS=${LOGS:-$REPO/out}
TARBALL=${TARBALL:-/usr/src/linux-source-6.12.tar.xz}
SRCPKG=${SRCPKG:-linux-source-6.12}
JOBS=${JOBS:-$(nproc)}
export CCACHE_DIR CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
# Kbuild writes include/generated/autoconf.h moments before the first
# compiles, and ccache refuses its direct mode for a header written after
# the compile started.  (What cost check's build of the integration
# kernel's configuration its direct-mode hits in the cold make test of
# 2026-12-06 was another thing: build-kernel.sh said ARCH=x86, and the
# architecture's name in autoconf.h's header differed.)
export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-include_file_mtime,include_file_ctime}

# Identity used for commits in the kernel tree and for the exported patches.
FSB_NAME=${FSB_NAME:-fsblock developers}
FSB_EMAIL=${FSB_EMAIL:-fsblock-devel@example.org}

STAMP=$TREE/.git/fsblock-stamp

# The KUnit run: kunit/args holds the arguments of "kunit.py run
# --arch=x86_64", one per line, paths relative to the repository (fs/...:
# to the kernel tree, the series' fs/fsblock/.kunitconfig).  The one list
# of them: run_kunit.sh runs with it (and prints it with --print), make
# check configures every prefix with its --kunitconfig lines.
kunit_args() {
	sed -e 's/[[:space:]]*#.*//' -e '/^$/d' -e "s|=kunit/|=$REPO/kunit/|" \
	    -e "s|=kconfig/|=$REPO/kconfig/|" -e "s|=fs/|=$TREE/fs/|" "$REPO/kunit/args"
}
mapfile -t KUNIT_ARGS < <(kunit_args)
mapfile -t KUNIT_CONFIGS < <(kunit_args | grep '^--kunitconfig=')

say()  { printf '%s %s\n' "[$(date +%H:%M:%S)]" "$*" >&2; }
die()  { printf 'error: %s\n' "$*" >&2; exit 1; }

# gc.auto=0: an automatic gc after "git am" detaches into the background
# and would keep the build lock (fd 9) for minutes; fd 9 is closed for git.
tgit() { git -C "$TREE" -c user.name="$FSB_NAME" -c user.email="$FSB_EMAIL" \
	     -c advice.detachedHead=false -c gc.auto=0 "$@" 9>&-; }

pkg_version() { dpkg-query -W -f='${Version}' "$SRCPKG" 2>/dev/null || echo unknown; }

# The patches named in patches/series, in order.
series_patches() {
	[ -f "$REPO/patches/series" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$REPO/patches/series" | grep -v '^$' || true
}

# A hash of the series and every patch it names: what the tree was built from.
patches_hash() {
	{ cat "$REPO/patches/series" 2>/dev/null || true
	  series_patches | while read -r p; do cat "$REPO/patches/$p"; done
	} | sha256sum | cut -d' ' -f1
}

stamp_get() { [ -f "$STAMP" ] && sed -n "s/^$1=//p" "$STAMP" || true; }

stamp_write() {	# head patches-hash version
	printf 'head=%s\npatches=%s\nversion=%s\n' "$1" "$2" "$3" > "$STAMP"
}

# Options that make git format-patch output depend only on the commits.
FORMAT_PATCH_OPTS=(--zero-commit --no-signature --no-numbered --stat=80
		   --abbrev=12 --full-index --no-renames)

# The tree must hold nothing uncommitted before it is synced or exported.
require_clean_tree() {
	if [ -n "$(tgit status --porcelain --untracked-files=normal | head -1)" ]; then
		tgit status --short | head -20 >&2
		die "the tree $TREE has uncommitted changes.
  Commit them (git -C $TREE commit -a) and run 'make export',
  or discard them (git -C $TREE checkout -f && git -C $TREE clean -fd)."
	fi
}

# A line every minute while a long, silent step runs: heartbeat_start
# 'shell words printing the progress'; heartbeat_stop when the step ends.
# The loop closes the build lock's fd 9 and takes its sleep down with it,
# so that nothing it leaves behind holds the lock or a pipe.
heartbeat_start() {
	( trap 'kill $s 2>/dev/null; exit 0' TERM
	  while :; do sleep 60 & s=$!; wait $s; say "... $(eval "$1")"; done ) 9>&- &
	HEARTBEAT=$!
}
heartbeat_stop() {
	kill "$HEARTBEAT" 2>/dev/null; wait "$HEARTBEAT" 2>/dev/null || true
}

# deps.sh and tree.sh, once per make invocation: the Makefile runs them as
# prerequisites and sets FSB_SETUP_DONE for the recipes; a script run by
# hand runs them itself.
setup_once() {
	[ "${FSB_SETUP_DONE:-0}" = 1 ] && return 0
	bash "$REPO/scripts/deps.sh"
	bash "$REPO/scripts/tree.sh"
	export FSB_SETUP_DONE=1
}

# Run a command with the build folder locked, so that two make runs
# cannot build in the same folders at once.
with_lock() {
	mkdir -p "$BUILD"
	exec 9>"$BUILD/.lock"
	if ! flock -n 9; then
		say "waiting for another fsblock build using $BUILD"
		flock 9
	fi
}

# The QEMU every guest runs in: TCG (nested KVM hangs on these machines),
# 2 vCPUs, the serial console to a file, no reboot.  Sets the array QEMU;
# the caller adds its disks.
#
# No ACPI in any kernel (kconfig/lean.config): routing the virtio disks'
# interrupts through ACPI's links took 8 s per device under TCG, over 30 s
# beside a build, long enough to trip PROVE_RCU's stall check in the boot
# (rcu_check_gp_start_stall, seen 2026-12-05).  The disks use MSI-X; the
# BIOS's MP table gives the CPUs and the rest of the routing.
qemu_cmd() {	# bzImage initrd console-log memory-MiB append
	QEMU=(qemu-system-x86_64 -machine pc -accel tcg,thread=multi -smp 2 -m "$4")
	if [ -f /usr/share/qemu/qboot.rom ]; then QEMU+=(-bios qboot.rom); fi
	QEMU+=(-nodefaults -display none -no-reboot -serial file:"$3"
	       -kernel "$1" -initrd "$2" -append "$5")
}

# Console-log check shared by the KUnit and integration runners: prints
# every line that is a kernel splat, with two lines of context.  Returns 0
# when the log is clean.
SPLAT_RE='(BUG:|WARNING:|UBSAN:|Oops|Kernel panic|kernel BUG at|general protection fault|Unable to handle kernel|possible circular locking dependency|possible recursive locking|inconsistent lock state|detected stall|INFO: task .* blocked for more than|KFENCE:|FSBLOCK DEBUG:)'
scan_log() {
	local log=$1
	if grep -Eq "$SPLAT_RE" "$log"; then
		say "kernel splat in $log:"
		grep -En -B2 -A25 "$SPLAT_RE" "$log" | head -120 >&2
		return 1
	fi
	return 0
}
