#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the fsblock KUnit suites with the tree's own kunit.py under QEMU
# (x86_64, TCG, 2 vCPUs), with the debug set on: kunit.py run
# --arch=x86_64 with the arguments of kunit/args, a build folder and
# ccache.  Extra arguments go to 'kunit.py run' unchanged: a suite glob
# ('fsblock_layout'), --filter, ...  './run_kunit.sh --print' prints the
# kunit.py command (to run in a kernel tree with the series) and exits.
#
# Fails on any failed or crashed test and on any kernel splat (BUG,
# WARNING, KASAN, lockdep, ...) in the raw console log, which is kept as
# $LOGS/kunit.log; the results are in $LOGS/kunit.json (kunit.py --json),
# and the last line counts them: "N passed, N failed, N skipped".
. "$(dirname "$0")/scripts/common.sh"

if [ "${1:-}" = --print ]; then
	printf 'tools/testing/kunit/kunit.py run --arch=x86_64'
	printf " %q" "${KUNIT_ARGS[@]}"
	echo
	exit 0
fi

setup_once
with_lock

KBUILD=${KUNIT_BUILD:-$BUILD/kunit}
mkdir -p "$KBUILD" "$LOGS" "$CCACHE_DIR"
out=$LOGS/kunit.out
log=$LOGS/kunit.log
json=$LOGS/kunit.json
rm -f "$KBUILD/test.log" "$out" "$log" "$json"

args=(run --arch=x86_64 --build_dir="$KBUILD" --jobs="$JOBS" "${KUNIT_ARGS[@]}"
      --timeout="${KUNIT_TIMEOUT:-1200}" --json="$json"
      --make_options="CC=ccache gcc")

say "kunit.py: building (cold: about 11 minutes; output in $out) and running"
rc=0
# kunit.py prints nothing while it builds; show a heartbeat instead of silence.
heartbeat_start 'echo "still building/running ($(find "$KBUILD" -name "*.o" 2>/dev/null | wc -l) objects)"'
( cd "$TREE" && python3 tools/testing/kunit/kunit.py "${args[@]}" "$@" ) >"$out" 2>&1 || rc=$?
heartbeat_stop

# The parsed results, as kunit.py printed them.
sed -n '/Starting KUnit Kernel/,$p' "$out" | grep -v '^\s*$' >&2 ||
	tail -40 "$out" >&2
[ -f "$KBUILD/test.log" ] && cp "$KBUILD/test.log" "$log"

# The counts, from kunit.py's JSON: every test case, parameterised ones
# once per parameter.
counts=$(python3 - "$json" <<'PY' 2>/dev/null || echo "0 0 0"
import json, sys
n = {"PASS": 0, "FAIL": 0, "SKIP": 0}
def walk(g):
    for c in g.get("test_cases", []):
        s = c["status"]
        n["FAIL" if s not in n else s] += 1
    for sub in g.get("sub_groups", []):
        walk(sub)
walk(json.load(open(sys.argv[1])))
print(n["PASS"], n["FAIL"], n["SKIP"])
PY
)
read -r kp kf ks <<< "$counts"

status=0
if [ $rc -ne 0 ]; then
	grep -q 'Starting KUnit Kernel' "$out" || tail -40 "$out" >&2
	say "KUnit FAILED (kunit.py exit $rc); raw console log: $log"
	[ -f "$log" ] && scan_log "$log" || true
	status=1
elif [ ! -f "$log" ]; then
	say "KUnit: no console log at $KBUILD/test.log"; status=1
elif ! scan_log "$log"; then
	say "KUnit FAILED: kernel splat in the console log ($log), whatever the tests said"
	status=1
elif [ "$kp" -eq 0 ]; then
	say "KUnit FAILED: no test case passed (results: $json)"; status=1
else
	say "KUnit passed with a clean console log ($log)"
fi
echo "KUnit: $kp passed, $kf failed, $ks skipped"
exit $status
