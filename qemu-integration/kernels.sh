# SPDX-License-Identifier: GPL-2.0
# The kernels the guests boot, for run.sh and scripts/bench.sh (sourced
# after scripts/common.sh, with the build lock held):
#   integration  Debian's 6.12 with the series, the debug set,
#                FSBLOCK_DEBUG and the KUnit suites (built, not run)
#   nobh         the same without CONFIG_BUFFER_HEAD (kconfig/nobh.config)
#   stock        Debian's 6.12 without the series, same config otherwise,
#                from the tree's base commit in $BUILD/linux-stock
#   fast         the series without the debug set (kconfig/bench.config)
#   stock-fast   stock 6.12 with the fast kernel's configuration
#   fast-prof, stock-fast-prof
#                the two with the function profiler (kconfig/profile.config),
#                for make bench-profile
# Each is built into $BUILD/int-NAME by build-kernel.sh; build_kernel NAME.

MAIN_TREE=$TREE

# The stock tree: the base commit of the tree (Debian's pristine source),
# written out once per base; sets STOCK_TREE.
stock_tree() {
	local dir=$BUILD/linux-stock want
	want="$(pkg_version) $(tgit rev-parse base)"
	if [ "$(cat "$dir/.fsb-stock" 2>/dev/null)" != "$want" ]; then
		say "writing the stock tree (the base commit) to $dir"
		rm -rf "$dir" && mkdir -p "$dir"
		tgit archive base | tar -x -C "$dir" || die "cannot write the stock tree to $dir"
		echo "$want" > "$dir/.fsb-stock"
	fi
	[ -f "$dir/fs/Kconfig" ] || die "$dir is not a kernel tree: remove it and run again"
	! grep -q '^config FSBLOCK$' "$dir/fs/Kconfig" || die "$dir is not a stock tree"
	STOCK_TREE=$dir
}

# Build kernel $1.  A stock kernel is built with its tree mounted over
# the main tree's path (a private mount namespace), so that both compile
# with the same paths and ccache serves the stock build every object the
# series does not change.
build_kernel() {
	local k=$1 tree=$MAIN_TREE frags=() f
	# The debug kernels are built from the KUnit kernel's fragments
	# (kunit/args, in its order), suites included but not run: the
	# integration kernel's .config is the KUnit kernel's and make check's,
	# so a cold make test compiles each object once and ccache serves the
	# other builds.  The stock kernel leaves out the two fragments that
	# need the series.
	case $k in
	integration|nobh|stock)
		for f in "${KUNIT_CONFIGS[@]#--kunitconfig=}"; do
			case $k:${f##*/} in
			stock:.kunitconfig|stock:fsblock-debug.config) ;;
			*) frags+=("$f") ;;
			esac
		done ;;
	*)	frags=("$REPO/kconfig/lean.config" "$REPO/kconfig/integration.config") ;;
	esac
	case $k in
	integration) ;;
	nobh)	frags+=("$REPO/kconfig/nobh.config") ;;
	stock)	stock_tree; tree=$STOCK_TREE ;;
	fast)	frags+=("$REPO/kconfig/bench.config") ;;
	stock-fast)
		frags+=("$REPO/kconfig/bench.config"); stock_tree; tree=$STOCK_TREE ;;
	fast-prof)
		frags+=("$REPO/kconfig/bench.config" "$REPO/kconfig/profile.config") ;;
	stock-fast-prof)
		frags+=("$REPO/kconfig/bench.config" "$REPO/kconfig/profile.config")
		stock_tree; tree=$STOCK_TREE ;;
	*)	die "kernel '$k': integration, nobh, stock, fast, stock-fast, fast-prof or stock-fast-prof" ;;
	esac
	if [ "$tree" = "$MAIN_TREE" ]; then
		bash "$REPO/qemu-integration/build-kernel.sh" "$k" "${frags[@]}"
	else
		unshare -m --propagation private true 2>/dev/null ||
			die "the $k kernel is built in a private mount namespace (unshare -m), which needs root"
		unshare -m --propagation private bash -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' \
			_ "$tree" "$MAIN_TREE" bash "$REPO/qemu-integration/build-kernel.sh" "$k" "${frags[@]}"
	fi
	# Whichever tree it came from, the kernel must be what it claims.
	if grep -q ' fsblock_attach$' "$BUILD/int-$k/System.map"; then
		[ "$tree" = "$MAIN_TREE" ] || die "the $k kernel contains fsblock"
	else
		[ "$tree" != "$MAIN_TREE" ] || die "the $k kernel does not contain fsblock"
	fi
}

# The guest's clock, for make bench and make bench-profile: without ACPI
# the guest has no HPET or PM timer, cannot calibrate its TSC against the
# PIT under TCG and falls back to jiffies (4 ms steps).  Under TCG the
# guest's TSC is the host's, so the guest is told the host's TSC frequency
# (tsc_early_khz) and that the TSC is reliable (no watchdog against
# jiffies, which lag whenever the host is busy); the guest checks that
# the TSC is its clocksource.  Prints the command-line arguments.
guest_clock_args() {
	local khz
	khz=$(awk -F: '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' /proc/cpuinfo)
	[ -n "$khz" ] || die "no 'cpu MHz' in /proc/cpuinfo: the guest's TSC frequency is unknown"
	echo "tsc_early_khz=$khz tsc=reliable"
}

# make bench and make bench-profile: boot kernel $1 with initramfs $2 and
# command line $3 (fsbkernel= added), console to $4, QEMU's own output to
# $5, for at most $TIMEOUT seconds; $6 names the boot in the progress
# lines.  Stops unless the guest's scenario $7 passed and the console
# is free of kernel splats.
boot_bench_guest() {
	local k=$1 initrd=$2 cmd=$3 log=$4 qout=$5 label=$6 scen=$7 rc=0
	qemu_cmd "$BUILD/int-$k/arch/x86/boot/bzImage" "$initrd" "$log" 2048 "$cmd fsbkernel=$k"
	: > "$log"
	heartbeat_start "echo \"$label: \$(tr -d '\r' < $log | grep -a '^FSB-STEP' | tail -1 | cut -c11-)\""
	timeout --foreground -k 10 "$TIMEOUT" "${QEMU[@]}" </dev/null >"$qout" 2>&1 9>&- || rc=$?
	heartbeat_stop
	if ! grep -aq "^FSB-RESULT $scen PASS" "$log"; then
		tr -d '\r' < "$log" | grep -av '^FSB-\(BENCH\|PROF\|SLAB\)' | tail -25 >&2 || true
		die "$label: the workloads did not finish (QEMU exit $rc); console: $log"
	fi
	scan_log "$log" || die "$label: kernel splat in $log"
}
