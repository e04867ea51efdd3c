#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench-profile: where make bench's differences come from.
#
# Builds the fast and stock-fast kernels again with ftrace's function
# profiler (kconfig/profile.config) as fast-prof and stock-fast-prof,
# boots each once and runs qemu-integration/bench/profile.sh: the growth
# of each slab cache while BENCH_MEM_MB (128) of files are dirty, after
# sync and after a cold read; then fsbtree's create, syncfs and unlink of
# BENCH_FILES (default 5000) files, and a cold sequential read of a file
# of BENCH_SEQ_MB (32) MiB, each timed BENCH_PROF_ROUNDS (3) times and then
# once under the profiler.
# scripts/bench-profile-report.py then writes $(LOGS)/bench-profile.md:
# the functions whose time differs most between the kernels, the
# counterparts named in it side by side, and the bytes per slab cache per
# GiB of cached data.  BENCH_FS (minix2) chooses the filesystems, as for
# make bench.  One boot of each kernel: the profile says where the time
# goes, make bench says how much it is.
. "$(dirname "$0")/common.sh"
. "$REPO/qemu-integration/kernels.sh"

FSLIST=${BENCH_FS:-minix2}
TIMEOUT=${BENCH_TIMEOUT:-1800}
OUT=$LOGS/bench-profile
t0=$(date +%s)

setup_once
with_lock
rm -rf "$OUT" && mkdir -p "$OUT"
say "make bench-profile: the fast-prof and stock-fast-prof kernels; $FSLIST"
clock=$(guest_clock_args) || exit 1
build_kernel fast-prof
build_kernel stock-fast-prof
INITRAMFS_BENCH=1 bash "$REPO/qemu-integration/mkinitramfs.sh" "$OUT/initramfs.cpio" \
	"$REPO/qemu-integration/bench/profile.sh"
cmdline="console=ttyS0 loglevel=5 $clock panic=-1 oops=panic rdinit=/init slab_nomerge
brd.rd_nr=1 brd.rd_size=262144 bench_fs=$FSLIST bench_files=${BENCH_FILES:-5000}
bench_mem_mb=${BENCH_MEM_MB:-128} prof_rounds=${BENCH_PROF_ROUNDS:-3}
bench_seq_mb=${BENCH_SEQ_MB:-32}"
cmdline=$(echo $cmdline)

for k in fast-prof stock-fast-prof; do
	log=$OUT/boot-$k.log s=$(date +%s)
	boot_bench_guest "$k" "$OUT/initramfs.cpio" "$cmdline" "$log" "$OUT/qemu-$k.out" "$k" profile
	say "$k: $(grep -ac '^FSB-PROF' "$log") functions, $(grep -ac '^FSB-SLAB' "$log") slab figures in $(( $(date +%s) - s ))s"
done

commit=$(git -C "$REPO" describe --always --dirty 2>/dev/null || echo unknown)
python3 "$REPO/scripts/bench-profile-report.py" "$OUT/boot-fast-prof.log" \
	"$OUT/boot-stock-fast-prof.log" "$LOGS/bench-profile.md" \
	"$(date +%Y-%m-%d), commit $commit, $FSLIST, ${BENCH_FILES:-5000} files" ||
	die "the report failed"
say "make bench-profile: $(( $(date +%s) - t0 ))s; report: $LOGS/bench-profile.md"
