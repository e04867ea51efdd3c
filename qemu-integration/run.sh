#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make integration: build the integration kernel from kconfig/ fragments,
# build the initramfs, boot QEMU (TCG, 2 vCPUs, a virtio scratch disk and
# brd), run every scenario of qemu-integration/scenarios/ (or those
# matching $SCENARIOS, a shell glob), print one line per scenario and a
# final "N passed, N failed" line.
#
# Fails on a failed or missing scenario, a hung guest (killed after
# $INTEGRATION_TIMEOUT seconds) and any kernel splat in the console log,
# which is kept as $LOGS/integration-<kernel>.log.
. "$(dirname "$0")/../scripts/common.sh"

KERNEL=${KERNEL:-integration}
SCENARIOS=${SCENARIOS:-*}
SCENARIO_DIR=${SCENARIO_DIR:-$REPO/qemu-integration/scenarios}
TIMEOUT=${INTEGRATION_TIMEOUT:-2700}

bash "$REPO/scripts/deps.sh"
[ "${TREE_SYNC:-1}" = 0 ] && say "TREE_SYNC=0: using $TREE as it is" || bash "$REPO/scripts/tree.sh"
with_lock

# The kernel: tinyconfig + the integration fragment + the debug set, and
# fsblock's own debug options when the tree has the series.
frags=("$REPO/kconfig/integration.config" "$REPO/kconfig/debug.config")
grep -q '^config FSBLOCK_DEBUG$' "$TREE/fs/Kconfig" && frags+=("$REPO/kconfig/fsblock-debug.config")
bash "$REPO/qemu-integration/build-kernel.sh" "$KERNEL" "${frags[@]}"
kimg=$BUILD/int-$KERNEL/arch/x86/boot/bzImage

mapfile -t scen < <(ls "$SCENARIO_DIR"/$SCENARIOS.sh 2>/dev/null)
[ ${#scen[@]} -gt 0 ] || die "no scenario matches '$SCENARIOS'"
initrd=$BUILD/int-$KERNEL.cpio
bash "$REPO/qemu-integration/mkinitramfs.sh" "$initrd" "${scen[@]}"

disk=$BUILD/int-$KERNEL-disk.img
rm -f "$disk" && truncate -s 64M "$disk"
log=$LOGS/integration-$KERNEL.log
mkdir -p "$LOGS"
: > "$log"

bios=()
[ -f /usr/share/qemu/qboot.rom ] && bios=(-bios qboot.rom)
say "booting QEMU (TCG, 2 vCPUs) for ${#scen[@]} scenarios; console: $log"
timeout --foreground -k 10 "$TIMEOUT" \
	qemu-system-x86_64 -machine pc -accel tcg,thread=multi -smp 2 -m 2048 \
	"${bios[@]}" -nodefaults -display none -no-reboot \
	-serial file:"$log" \
	-kernel "$kimg" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 oops=panic brd.rd_nr=1 brd.rd_size=32768 rdinit=/init" \
	-drive file="$disk",if=virtio,format=raw,cache=unsafe \
	</dev/null >"$LOGS/qemu-$KERNEL.out" 2>&1 &
qpid=$!

# Report each scenario as its result appears in the console log.
shown=0
report() {
	local lines
	lines=$(grep -a '^FSB-RESULT ' "$log" | tr -d '\r' || true)
	[ -z "$lines" ] && return 0
	echo "$lines" | tail -n +$((shown + 1)) | while read -r _ n r t; do
		say "$r $n ($t)"
	done
	shown=$(echo "$lines" | wc -l)
}
while kill -0 $qpid 2>/dev/null; do
	sleep 5
	report
done
qrc=0
wait $qpid || qrc=$?
report

pass=0 fail=0 skip=0
for s in "${scen[@]}"; do
	n=$(basename "$s" .sh)
	r=$(grep -a "^FSB-RESULT $n " "$log" | tr -d '\r' | awk '{print $3}' | tail -1 || true)
	case $r in
	PASS) pass=$((pass + 1)) ;;
	SKIP) skip=$((skip + 1)) ;;
	*)
		fail=$((fail + 1))
		if [ -z "$r" ]; then
			say "FAIL $n: no result (the guest died or hung during it)"
		else
			say "FAIL $n; its last lines:"
		fi
		sed -n "/^FSB-BEGIN $n /,/^FSB-RESULT $n /p" "$log" | tr -d '\r' |
			grep -av '^FSB-RESULT' | tail -25 | sed 's/^/    /' >&2
		;;
	esac
done

ok=1
if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
	say "FAIL: the guest did not finish within ${TIMEOUT}s and was killed"
	ok=0
elif ! grep -aq '^FSB-DONE' "$log"; then
	say "FAIL: the guest did not reach the end of the scenarios (QEMU exit $qrc)"
	tail -30 "$log" >&2
	ok=0
fi
scan_log "$log" || { say "FAIL: kernel splat in the console log ($log)"; ok=0; }
[ $fail -eq 0 ] || ok=0

echo "integration ($KERNEL kernel): $pass passed, $fail failed, $skip skipped"
echo "$pass passed, $fail failed"
[ $ok -eq 1 ]
