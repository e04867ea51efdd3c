#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the fsblock KUnit suites with the tree's own kunit.py under QEMU
# (x86_64, TCG, 2 vCPUs), with the debug set on.  Extra arguments go to
# 'kunit.py run' unchanged: a suite glob ('fsblock_layout'), --filter, ...
#
# Fails on any failed or crashed test and on any kernel splat (BUG,
# WARNING, KASAN, lockdep, ...) in the raw console log, which is kept as
# $LOGS/kunit.log.
. "$(dirname "$0")/scripts/common.sh"

bash "$REPO/scripts/deps.sh"
[ "${TREE_SYNC:-1}" = 0 ] && say "TREE_SYNC=0: using $TREE as it is" || bash "$REPO/scripts/tree.sh"
with_lock

KBUILD=${KUNIT_BUILD:-$BUILD/kunit}
mkdir -p "$KBUILD" "$LOGS" "$CCACHE_DIR"
out=$LOGS/kunit.out
log=$LOGS/kunit.log
rm -f "$KBUILD/test.log" "$out" "$log"

args=(run --arch=x86_64 --build_dir="$KBUILD" --jobs="$JOBS"
      "${KUNIT_CONFIGS[@]}"
      --qemu_args="-smp 2" --timeout="${KUNIT_TIMEOUT:-1200}"
      --kernel_args="fail_make_request=1,100,0,-1"
      --make_options="CC=ccache gcc")

say "kunit.py: building (cold: about 7 minutes; output in $out) and running"
rc=0
# kunit.py prints nothing while it builds; show a heartbeat instead of silence.
heartbeat_start 'echo "still building/running ($(find "$KBUILD" -name "*.o" 2>/dev/null | wc -l) objects)"'
( cd "$TREE" && python3 tools/testing/kunit/kunit.py "${args[@]}" "$@" ) >"$out" 2>&1 || rc=$?
heartbeat_stop

# The parsed summary, as kunit.py printed it.
sed -n '/Starting KUnit Kernel/,$p' "$out" | grep -v '^\s*$' >&2 ||
	tail -40 "$out" >&2
[ -f "$KBUILD/test.log" ] && cp "$KBUILD/test.log" "$log"

if [ $rc -ne 0 ]; then
	grep -q 'Starting KUnit Kernel' "$out" || tail -40 "$out" >&2
	say "KUnit FAILED (kunit.py exit $rc); raw console log: $log"
	[ -f "$log" ] && scan_log "$log" || true
	exit 1
fi
if [ ! -f "$log" ]; then
	say "KUnit: no console log at $KBUILD/test.log"; exit 1
fi
if ! scan_log "$log"; then
	say "KUnit FAILED: kernel splat in the console log ($log), whatever the tests said"
	exit 1
fi
say "KUnit passed with a clean console log ($log)"
