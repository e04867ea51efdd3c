#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make test: make check, the KUnit suites, and the integration run on the
# three kernels (the fsblock debug kernel, the same without buffer_heads,
# and stock 6.12 without the series), each stage run even if an earlier
# one failed; a summary at the end.
. "$(dirname "$0")/common.sh"
mkdir -p "$LOGS"
t0=$(date +%s)
declare -A res
total_pass=0 total_fail=0

stage() {	# name command...
	local name=$1 s rc=0
	shift
	s=$(date +%s)
	say "=== $name"
	"$@" 2>&1 | tee "$LOGS/test-$name.out" || rc=${PIPESTATUS[0]}
	if [ $rc -eq 0 ]; then res[$name]="passed"; else res[$name]="FAILED"; fi
	res[$name]+=" in $(( $(date +%s) - s ))s"
	return 0
}

stage check bash "$REPO/scripts/check.sh"
stage kunit "$REPO/run_kunit.sh"
stage integration env KERNELS="integration nobh stock" bash "$REPO/qemu-integration/run.sh"

# Counts: KUnit test cases as kunit.py parsed them, integration scenarios,
# and one for each stage that could not be counted finer.
kp=$(grep -aoE 'Ran [0-9]+ tests: passed: [0-9]+' "$LOGS/test-kunit.out" | tail -1 | grep -oE '[0-9]+$' || echo 0)
kf=$(grep -aoE 'Ran [0-9]+ tests: .*failed: [0-9]+' "$LOGS/test-kunit.out" | tail -1 | grep -oE 'failed: [0-9]+' | grep -oE '[0-9]+' || echo 0)
ip=$(grep -aE '^[0-9]+ passed, [0-9]+ failed$' "$LOGS/test-integration.out" | tail -1 | cut -d' ' -f1)
if_=$(grep -aE '^[0-9]+ passed, [0-9]+ failed$' "$LOGS/test-integration.out" | tail -1 | cut -d' ' -f3)
total_pass=$(( ${kp:-0} + ${ip:-0} ))
total_fail=$(( ${kf:-0} + ${if_:-0} ))
# A stage that failed without a failed test to show for it (a build
# failure, a splat, a timeout) still counts as a failure.
for s in check kunit integration; do
	case ${res[$s]} in
	FAILED*)
		[ $s = kunit ] && [ "${kf:-0}" -gt 0 ] && continue
		[ $s = integration ] && [ "${if_:-0}" -gt 0 ] && continue
		total_fail=$((total_fail + 1)) ;;
	*)	[ $s = check ] && total_pass=$((total_pass + 1)) ;;
	esac
done

echo
echo "==== make test summary ($(( $(date +%s) - t0 ))s; logs in $LOGS)"
for s in check kunit integration; do printf '  %-12s %s\n' "$s" "${res[$s]}"; done
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ] && [ "$total_pass" -gt 0 ]
