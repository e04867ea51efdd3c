#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make integration: build integration kernels from kconfig/ fragments,
# build the initramfs, boot each kernel in QEMU (TCG, 2 vCPUs, a virtio
# scratch disk and brd RAM disks), run every scenario of
# qemu-integration/scenarios/ (or those matching $SCENARIOS, a shell glob),
# print one line per scenario and a final "N passed, N failed" line.
#
# KERNELS lists the kernels (default: integration):
#   integration  Debian's 6.12 with the series, the debug set and
#                FSBLOCK_DEBUG ("make integration")
#   nobh         the same without CONFIG_BUFFER_HEAD (kconfig/nobh.config):
#                ext2 is not built, its scenarios skip and say so
#   stock        Debian's 6.12 without the series, same config otherwise,
#                from a second tree in $BUILD/linux-stock: no scenario may
#                pass only because fsblock is there
# The kernels are built one after the other, each booted as soon as it is
# built.  The first kernel's guest is the long one (the 200000 fsbx
# operations per minix version): the later builds and guests run under
# nice, so that they take only the CPU it leaves idle.  FSX_OPS is the
# length of each fsbx run (see lib.sh fs_exercise; 4 runs per version):
# 50000 on the integration kernel, 2500 on the others.  FLIP_RUNS is the
# number of seeds per minix version of minix-byteflip: 30 on the
# integration kernel, 10 on the others.
#
# Fails on a failed or missing scenario, a hung guest (killed after
# $INTEGRATION_TIMEOUT seconds) and any kernel splat in a console log,
# which is kept as $LOGS/integration-<kernel>.log.
. "$(dirname "$0")/../scripts/common.sh"

KERNELS=${KERNELS:-${KERNEL:-integration}}
SCENARIOS=${SCENARIOS:-*}
SCENARIO_DIR=${SCENARIO_DIR:-$REPO/qemu-integration/scenarios}
TIMEOUT=${INTEGRATION_TIMEOUT:-4800}

bash "$REPO/scripts/deps.sh"
[ "${TREE_SYNC:-1}" = 0 ] && say "TREE_SYNC=0: using $TREE as it is" || bash "$REPO/scripts/tree.sh"
with_lock
MAIN_TREE=$TREE

mapfile -t scen < <(ls "$SCENARIO_DIR"/$SCENARIOS.sh 2>/dev/null)
[ ${#scen[@]} -gt 0 ] || die "no scenario matches '$SCENARIOS'"
mkdir -p "$LOGS"

# Build kernel $1 and its initramfs; sets OPS[$1] and FLIPS[$1].
declare -A OPS FLIPS
prepare() {
	local k=$1 frags
	TREE=$MAIN_TREE
	if [ "$k" = stock ]; then
		# The pristine tarball, extracted once per package version.
		TREE=$BUILD/linux-stock
		if [ "$(cat "$TREE/.fsb-stock" 2>/dev/null)" != "$(pkg_version)" ]; then
			say "extracting $TARBALL into $TREE for the stock kernel (about a minute)"
			rm -rf "$TREE" && mkdir -p "$TREE"
			tar -xJf "$TARBALL" -C "$TREE" --strip-components=1
			pkg_version > "$TREE/.fsb-stock"
		fi
		! grep -q '^config FSBLOCK$' "$TREE/fs/Kconfig" || die "$TREE is not a stock tree"
	fi
	# tinyconfig + the integration fragment + the debug set, and
	# fsblock's own debug options when the tree has the series.
	frags=("$REPO/kconfig/integration.config" "$REPO/kconfig/debug.config")
	grep -q '^config FSBLOCK_DEBUG$' "$TREE/fs/Kconfig" && frags+=("$REPO/kconfig/fsblock-debug.config")
	case $k in
	integration) OPS[$k]=${FSX_OPS:-50000} FLIPS[$k]=${FLIP_RUNS:-30} ;;
	nobh)	OPS[$k]=${FSX_OPS:-2500} FLIPS[$k]=${FLIP_RUNS:-10}
		frags+=("$REPO/kconfig/nobh.config") ;;
	stock)	OPS[$k]=${FSX_OPS:-2500} FLIPS[$k]=${FLIP_RUNS:-10} ;;
	*)	die "kernel '$k': integration, nobh or stock" ;;
	esac
	TREE=$TREE $NICE bash "$REPO/qemu-integration/build-kernel.sh" "$k" "${frags[@]}"
	$NICE bash "$REPO/qemu-integration/mkinitramfs.sh" "$BUILD/int-$k.cpio" "${scen[@]}"
}

# Boot kernel $1 in the background; its console goes to
# $LOGS/integration-$1.log, its QEMU pid to QPID[$1].
declare -A QPID SHOWN
# A later build that fails must not leave the guests already booted behind.
kill_guests() {
	local p
	for p in "${QPID[@]}"; do kill "$p" 2>/dev/null || true; done
}
trap kill_guests EXIT
boot() {
	local k=$1 disk=$BUILD/int-$1-disk.img log=$LOGS/integration-$1.log bios=()
	rm -f "$disk" && truncate -s 64M "$disk"
	: > "$log"
	[ -f /usr/share/qemu/qboot.rom ] && bios=(-bios qboot.rom)
	say "booting the $k kernel (TCG, 2 vCPUs): ${#scen[@]} scenarios, fsbx runs of ${OPS[$k]} ops; console: $log"
	timeout --foreground -k 10 "$TIMEOUT" \
		$NICE qemu-system-x86_64 -machine pc -accel tcg,thread=multi -smp 2 -m 2048 \
		"${bios[@]}" -nodefaults -display none -no-reboot \
		-serial file:"$log" \
		-kernel "$BUILD/int-$k/arch/x86/boot/bzImage" -initrd "$BUILD/int-$k.cpio" \
		-append "console=ttyS0 panic=-1 oops=panic brd.rd_nr=2 brd.rd_size=32768 rdinit=/init fsbkernel=$k fsbx_ops=${OPS[$k]} flip_runs=${FLIPS[$k]}" \
		-drive file="$disk",if=virtio,format=raw,cache=unsafe \
		</dev/null >"$LOGS/qemu-$k.out" 2>&1 9>&- &
	QPID[$k]=$!
	SHOWN[$k]=0
}

# Print the scenario results of kernel $1 that appeared since last time.
report() {
	local k=$1 lines
	# Whole lines only: the guest may be half-way through writing one.
	lines=$(grep -a '^FSB-RESULT [^ ]* [A-Z]* [0-9]*s' "$LOGS/integration-$k.log" | tr -d '\r' || true)
	[ -z "$lines" ] && return 0
	echo "$lines" | tail -n +$((SHOWN[$k] + 1)) | while read -r _ n r t; do
		say "$k: $r $n ($t)"
	done
	SHOWN[$k]=$(echo "$lines" | wc -l)
}

# Judge kernel $1's run (QEMU exit status $2); adds to the totals.
pass=0 fail=0 skip=0 ok=1
judge() {
	local k=$1 qrc=$2 log=$LOGS/integration-$1.log s n r p=0 f=0 sk=0
	for s in "${scen[@]}"; do
		n=$(basename "$s" .sh)
		r=$(grep -a "^FSB-RESULT $n " "$log" | tr -d '\r' | awk '{print $3}' | tail -1 || true)
		case $r in
		PASS) p=$((p + 1)) ;;
		SKIP) sk=$((sk + 1))
		      say "$k: SKIP $n: $(sed -n "/^FSB-BEGIN $n /,/^FSB-RESULT $n /p" "$log" | tr -d '\r' | grep -a '^SKIP' | tail -1)" ;;
		*)
			f=$((f + 1))
			if [ -z "$r" ]; then
				say "$k: FAIL $n: no result (the guest died or hung during it)"
			else
				say "$k: FAIL $n; its last lines:"
			fi
			sed -n "/^FSB-BEGIN $n /,/^FSB-RESULT $n /p" "$log" | tr -d '\r' |
				{ grep -av '^FSB-RESULT' || true; } | tail -25 | sed 's/^/    /' >&2
			;;
		esac
	done
	if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
		say "$k: FAIL: the guest did not finish within ${TIMEOUT}s and was killed"
		ok=0
	elif ! grep -aq '^FSB-DONE' "$log"; then
		say "$k: FAIL: the guest did not reach the end of the scenarios (QEMU exit $qrc)"
		tail -30 "$log" >&2
		ok=0
	fi
	scan_log "$log" || { say "$k: FAIL: kernel splat in the console log ($log)"; ok=0; }
	[ $f -eq 0 ] || ok=0
	echo "integration ($k kernel): $p passed, $f failed, $sk skipped"
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + sk))
}

# Everything after the first guest's boot runs under nice (see above).
NICE=
for k in $KERNELS; do
	prepare "$k"
	boot "$k"
	NICE="nice -n 10"
done
# The builds are done: let another build use $BUILD while the guests run.
exec 9>&-

declare -A QRC
running=$KERNELS
while [ -n "$running" ]; do
	sleep 5
	still=
	for k in $running; do
		report "$k"
		# bash's own job table: a PID it has reaped may be reused.
		if [[ " $(jobs -rp | tr '\n' ' ') " == *" ${QPID[$k]} "* ]]; then
			still+=" $k"
		else
			QRC[$k]=0
			wait "${QPID[$k]}" || QRC[$k]=$?
			unset "QPID[$k]"	# reaped: kill_guests must not touch the PID
			report "$k"
			say "$k: guest finished (QEMU exit ${QRC[$k]})"
		fi
	done
	running=${still# }
done

for k in $KERNELS; do judge "$k" "${QRC[$k]}"; done
echo "$pass passed, $fail failed"
[ $ok -eq 1 ]
