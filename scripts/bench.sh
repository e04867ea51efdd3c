#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: fsblock against buffer_heads, measured side by side.
#
# Two kernels from the same configuration without the debug set
# (kconfig/integration.config + kconfig/bench.config):
# "fast", 6.12 with the series, and "stock-fast", 6.12 without it.  They
# boot alternately under the same QEMU settings, BENCH_PAIRS pairs
# (default 5) in the order A B, B A, A B, ... so that a drift of the
# machine's speed during the run falls on both alike; each boot runs
# every workload of qemu-integration/bench/bench.sh once.  Then
# scripts/bench-report.py prints, for every metric, the median, min and
# max per kernel and the ratio of the medians, and writes
# $(LOGS)/bench.md, $(LOGS)/bench.tsv and the plot $(LOGS)/bench.png.
#
# BENCH_FS (default minix2,minix3,ext2-1k,ext2-4k), BENCH_DBENCH_SECS (5),
# BENCH_DBENCH_PROCS (1,2,4), BENCH_FIO_MB (32), BENCH_FILES (10000) and
# BENCH_MEM_MB (128) set the workloads' lengths; BENCH_MEM_FS
# (minix2,ext2-1k,ext2-4k: one per block size and block layer; minix v3
# has the blocks of v2) the filesystems whose block-state memory is
# measured; BENCH_TIMEOUT (1200) the seconds a boot may take.
. "$(dirname "$0")/common.sh"
. "$REPO/qemu-integration/kernels.sh"

PAIRS=${BENCH_PAIRS:-5}
FSLIST=${BENCH_FS:-minix2,minix3,ext2-1k,ext2-4k}
TIMEOUT=${BENCH_TIMEOUT:-1200}
case ,$FSLIST, in *,minix1,*)
	die "BENCH_FS: minix1 cannot hold the 256 MiB RAM disk (at most 65535 blocks)" ;; esac
[ -z "$(echo "${BENCH_DBENCH_PROCS:-1,2,4}" | tr , '\n' | sort | uniq -d)" ] ||
	die "BENCH_DBENCH_PROCS names a process count twice: one figure per metric and boot"
# The memory's filesystems: BENCH_MEM_FS, each of which must be in
# BENCH_FS; by default those of minix2,ext2-1k,ext2-4k that are.
MEMFS=
for f in $(echo "${BENCH_MEM_FS:-minix2,ext2-1k,ext2-4k}" | tr , ' '); do
	case ,$FSLIST, in
	*,$f,*)	MEMFS=${MEMFS:+$MEMFS,}$f ;;
	*)	[ -z "${BENCH_MEM_FS:-}" ] || die "BENCH_MEM_FS: $f is not in BENCH_FS ($FSLIST)" ;;
	esac
done
[ "${BENCH_FIO_MB:-32}" -ge 4 ] || die "BENCH_FIO_MB must be at least 4 (the random read reads a quarter)"
A=fast B=stock-fast
OUT=$LOGS/bench
t0=$(date +%s)

setup_once
with_lock
mkdir -p "$LOGS"
rm -rf "$OUT" && mkdir -p "$OUT"
say "make bench: $PAIRS pairs of boots of the $A and $B kernels; $FSLIST (memory: ${MEMFS:-none})"
build_kernel $A
build_kernel $B
INITRAMFS_BENCH=1 bash "$REPO/qemu-integration/mkinitramfs.sh" "$OUT/initramfs.cpio" \
	"$REPO/qemu-integration/bench/bench.sh"
# loglevel=5: warnings and worse still reach the console (scan_log reads
# them); the INFO line of every drop_caches does not.  The guest's clock:
# see guest_clock_args.
clock=$(guest_clock_args) || exit 1
cmdline="console=ttyS0 loglevel=5 $clock panic=-1 oops=panic rdinit=/init slab_nomerge brd.rd_nr=1
brd.rd_size=262144 bench_fs=$FSLIST bench_dbench_secs=${BENCH_DBENCH_SECS:-5}
bench_dbench_procs=${BENCH_DBENCH_PROCS:-1,2,4} bench_fio_mb=${BENCH_FIO_MB:-32}
bench_files=${BENCH_FILES:-10000} bench_mem_mb=${BENCH_MEM_MB:-128}
bench_mem_fs=${MEMFS:-none}"
cmdline=$(echo $cmdline)

# Boot kernel $1 for pair $2 and wait; its figures go to results.tsv.
results=$OUT/results.tsv
printf 'pair\tkernel\tfs\tmetric\tvalue\tunit\n' > "$results"
run_boot() {
	local k=$1 i=$2 log=$OUT/boot-$2-$1.log s
	s=$(date +%s)
	boot_bench_guest "$k" "$OUT/initramfs.cpio" "$cmdline" "$log" "$OUT/qemu-$i-$k.out" \
		"pair $i, $k" bench
	tr -d '\r' < "$log" | awk -v i="$i" -v k="$k" -v OFS='\t' \
		'$1 == "FSB-BENCH" { print i, k, $2, $3, $4, $5 }' >> "$results"
	say "pair $i, $k: $(grep -ac '^FSB-BENCH' "$log") figures in $(( $(date +%s) - s ))s"
}

for i in $(seq "$PAIRS"); do
	if [ $((i % 2)) -eq 1 ]; then run_boot $A "$i"; run_boot $B "$i"
	else run_boot $B "$i"; run_boot $A "$i"; fi
done

# Code size: fsblock against fs/buffer.o, same configuration; fsblock
# and minix, built in (kbuild links no composite object then, only
# built-in.a), as the sums of their objects.  fsblock must be there in the
# kernel with the series: a table without it would compare nothing.
sizes=$OUT/sizes.tsv
printf 'kernel\tobject\ttext\tdata\tbss\n' > "$sizes"
for k in $A $B; do
	( cd "$BUILD/int-$k" && size fs/buffer.o |
		awk -v k="$k" -v OFS='\t' 'NR == 2 { print k, "fs/buffer.o", $1, $2, $3 }'
	  for d in fs/fsblock fs/minix; do
		ls $d/*.o > /dev/null 2>&1 || continue
		size -t $d/*.o | awk -v k="$k" -v o="$d/*.o" -v OFS='\t' \
			'$6 == "(TOTALS)" { print k, o, $1, $2, $3 }'
	  done
	) >> "$sizes"
done
grep -q "^$A	fs/fsblock/\*.o	" "$sizes" || die "no fsblock objects in $BUILD/int-$A: the code size would leave fsblock out"

commit=$(git -C "$REPO" describe --always --dirty 2>/dev/null || echo unknown)
python3 "$REPO/scripts/bench-report.py" "$results" "$sizes" "$LOGS" \
	"$(date +%Y-%m-%d), commit $commit, $PAIRS pairs, $A = with the series, $B = stock 6.12" ||
	die "the report failed"
say "make bench: $(( $(date +%s) - t0 ))s; table: $LOGS/bench.md, plot: $LOGS/bench.png"
