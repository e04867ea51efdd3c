#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make test: make check, the KUnit suites, and the integration run on the
# three kernels (the fsblock debug kernel, the same without buffer_heads,
# and stock 6.12 without the series), each stage run even if another one
# failed; a summary at the end.
#
# The stages overlap, so that the guests (which use about one core each
# while a scenario runs one process) share the machine with the builds:
# the integration stage starts first and builds its three kernels (it
# holds the build lock), booting each guest as soon as its kernel is
# built; check and KUnit then build while the guests run.  The
# integration stage's lines appear as they come, marked [integration].
. "$(dirname "$0")/common.sh"
setup_once
mkdir -p "$LOGS"
t0=$(date +%s)
declare -A res
total_pass=0 total_fail=0

verdict() {	# name rc start
	if [ "$2" -eq 0 ]; then res[$1]="passed"; else res[$1]="FAILED"; fi
	res[$1]+=" in $(( $(date +%s) - $3 ))s"
}

stage() {	# name command...
	local name=$1 s rc=0
	shift
	s=$(date +%s)
	say "=== $name"
	"$@" 2>&1 | tee "$LOGS/test-$name.out" || rc=${PIPESTATUS[0]}
	verdict "$name" $rc "$s"
}

say "=== integration (in the background: kernels first, then the guests)"
si=$(date +%s)
iout=$LOGS/test-integration.out
rm -f "$LOGS/test-integration.rc"
: > "$iout"
# Its own process group, so that an interrupted or failed make test takes
# the whole stage (builds, guests) down with it.
set -m
( rc=0
  env KERNELS="integration nobh stock" TIER=test bash "$REPO/qemu-integration/run.sh" 2>&1 |
	tee "$iout" | sed -u 's/^/[integration] /' || rc=${PIPESTATUS[0]}
  echo "$rc" > "$LOGS/test-integration.rc" ) &
ipid=$!
set +m
trap 'kill -- -$ipid 2>/dev/null || true' EXIT
trap 'exit 130' INT TERM
# run.sh prints its first line once it holds the build lock: check and
# KUnit ask for the lock after that.
for _ in $(seq 300); do
	[ -s "$iout" ] && break
	kill -0 $ipid 2>/dev/null || break
	sleep 1
done

stage check bash "$REPO/scripts/check.sh"
stage kunit "$REPO/run_kunit.sh"
wait $ipid || true
trap - EXIT INT TERM
verdict integration "$(cat "$LOGS/test-integration.rc" 2>/dev/null || echo 1)" "$si"

# Counts: KUnit test cases (run_kunit.sh counts them in kunit.py's JSON),
# integration scenarios, and one for each stage that could not be counted
# finer.
count() {	# file regex field
	grep -aE "$2" "$LOGS/test-$1.out" | tail -1 | awk "{print \$$3}" | grep -E '^[0-9]+$' || echo 0
}
kp=$(count kunit '^KUnit: [0-9]+ passed, [0-9]+ failed' 2)
kf=$(count kunit '^KUnit: [0-9]+ passed, [0-9]+ failed' 4)
ip=$(count integration '^[0-9]+ passed, [0-9]+ failed$' 1)
if_=$(count integration '^[0-9]+ passed, [0-9]+ failed$' 3)
total_pass=$(( kp + ip ))
total_fail=$(( kf + if_ ))
# A stage that failed without a failed test to show for it (a build
# failure, a splat, a timeout) still counts as a failure.
for s in check kunit integration; do
	case ${res[$s]} in
	FAILED*)
		[ $s = kunit ] && [ "$kf" -gt 0 ] && continue
		[ $s = integration ] && [ "$if_" -gt 0 ] && continue
		total_fail=$((total_fail + 1)) ;;
	*)	[ $s = check ] && total_pass=$((total_pass + 1)) ;;
	esac
done

echo
echo "==== make test summary ($(( $(date +%s) - t0 ))s; logs in $LOGS)"
for s in check kunit integration; do printf '  %-12s %s\n' "$s" "${res[$s]}"; done
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ] && [ "$total_pass" -gt 0 ]
