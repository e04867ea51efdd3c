# SPDX-License-Identifier: GPL-2.0
# make bench, guest side: the workloads of one boot, on a brd RAM disk,
# for each filesystem configuration in bench_fs= (kernel command line).
# Every figure is printed as
#   FSB-BENCH <fs> <metric> <value> <unit>
# and scripts/bench.sh on the host collects them over the boots of both
# kernels.  Times come from the tools themselves (fsbtree, fio, dbench).
# Each workload starts on a clean filesystem: an untimed sync first, so
# that the write-back of the one before is not charged to it.
. /fsb/lib.sh
DEV=/dev/ram0
CONFIGS=$(karg bench_fs minix2,minix3,ext2-1k,ext2-4k | tr , ' ')
DBENCH_SECS=$(karg bench_dbench_secs 5)
DBENCH_PROCS=$(karg bench_dbench_procs 1,2,4 | tr , ' ')
FIO_MB=$(karg bench_fio_mb 32)
NFILES=$(karg bench_files 10000)
MEM_MB=$(karg bench_mem_mb 128)
MEM_FS=" $(karg bench_mem_fs minix2,ext2-1k,ext2-4k | tr , ' ') "
FSSIZE_KB=$(( $(cat /sys/block/ram0/size) / 2 ))
KEEP=/sys/module/fsblock/parameters/keep_clean_blocks

metric() { echo "FSB-BENCH $FS $1 $2 $3"; }

# dbench with the client.txt of Debian's package: MB/s (after its warmup,
# a fifth of the run).
run_dbench() {
	for n in $DBENCH_PROCS; do
		sync
		dbench -c /fsb/client.txt -D $MNT -t "$DBENCH_SECS" "$n" > /tmp/dbench.out 2>&1 ||
			{ tail -5 /tmp/dbench.out; fail "dbench $n on $FS"; }
		tp=$(sed -n 's/^ *Throughput \([0-9.]*\) MB\/sec.*/\1/p' /tmp/dbench.out | tail -1)
		[ -n "$tp" ] || { tail -5 /tmp/dbench.out; fail "no dbench throughput on $FS"; }
		metric "dbench-$n" "$tp" MB/s
		rm -rf $MNT/clients
	done
}

# fio job $1 with the options after it; prints the bandwidth of its reads
# or writes (terse format 3: field 7 read KiB/s, 48 write KiB/s) in MiB/s.
run_fio() {
	name=$1 field=$2; shift 2
	fio --name="$name" --filename=$MNT/fio.dat --size=${FIO_MB}m --invalidate=0 \
	    --ioengine=psync --output-format=terse --terse-version=3 "$@" > /tmp/fio.out 2>&1 ||
		{ tail -5 /tmp/fio.out; fail "fio $name on $FS"; }
	bw=$(awk -F';' -v f="$field" '$1 == 3 { printf "%.1f", $f / 1024 }' /tmp/fio.out)
	[ -n "$bw" ] || { tail -5 /tmp/fio.out; fail "no fio result for $name on $FS"; }
	metric "fio-$name" "$bw" MiB/s
}

bench_fio() {
	sync
	run_fio seqwrite-64k-fsync 48 --rw=write --bs=64k --end_fsync=1
	run_fio randwrite-4k-fsync 48 --rw=randwrite --bs=4k --end_fsync=1
	drop_caches
	run_fio seqread-cold 7 --rw=read --bs=64k
	drop_caches
	run_fio randread-4k-cold 7 --rw=randread --bs=4k --io_size=$((FIO_MB / 4))m
	cat $MNT/fio.dat > /dev/null
	run_fio seqread-cached 7 --rw=read --bs=64k
	run_fio randread-4k-cached 7 --rw=randread --bs=4k
	rm -f $MNT/fio.dat
}

# fsbtree OP DIR as metric NAME: seconds, from fsbtree's own clock.
fsbtree_metric() {
	/bin/fsbtree "$2" "$3" "$NFILES" > /tmp/tree.out 2>&1 ||
		{ cat /tmp/tree.out; fail "fsbtree $2 on $FS"; }
	metric "$1" "$(sed -n 's/.*: \([0-9.]*\) s$/\1/p' /tmp/tree.out)" s
}

# fsbtree OP on the tree, tagged warm or cold.
tree_op() { fsbtree_metric "tree-$1-$2" "$1" $MNT/tree; }

# syncfs of the tree's filesystem.
timed_sync() { fsbtree_metric "$1" sync $MNT; }

bench_tree() {
	sync
	tree_op create warm
	timed_sync tree-sync-after-create
	drop_caches
	tree_op stat cold
	drop_caches
	tree_op read cold
	tree_op stat warm
	tree_op read warm
	tree_op unlink warm
	timed_sync tree-sync-after-unlink
	/bin/fsbtree create $MNT/tree "$NFILES" > /dev/null || fail "fsbtree create on $FS"
	drop_caches
	tree_op unlink cold
}

# Bytes of the slab caches that hold block state: the buffer_head cache,
# and every kmalloc cache, where fsblock's folio headers (with their
# blocks) and the extent map's nodes are allocated.  The kmalloc caches
# count on both kernels, so what else is kmalloc'ed meanwhile counts on
# both sides.  slab_nomerge keeps buffer_head apart from caches of the
# same size.
slab_bytes() {
	awk '$1 == "buffer_head" || $1 ~ /^kmalloc-[0-9kK]+$/ { s += $2 * $4 }
	     END { print s + 0 }' /proc/slabinfo
}

# fsblock frees a folio's block state with kfree_rcu(), which may hold the
# memory up to five seconds (KFREE_DRAIN_JIFFIES) before the slab sees it;
# buffer_heads are freed at once.  The series puts both filesystems on
# fsblock, so a reading taken after block state may have been freed
# (after sync, after a cold read) waits that long, on both kernels alike.
# After drop_caches a second is enough: the slab shrinkers it runs include
# kfree_rcu's, which starts the frees.
settled_slab_bytes() { sleep "$1"; slab_bytes; }

# Block state per GiB of cached file data, for MEM_MB of files of 32 KiB:
# while dirty, after sync, and after a cold read of the same files.  The
# difference is printed as measured: a negative figure is noise (caches
# shrinking meanwhile), not a saving.
bench_memory() {
	tag=$1
	n=$((MEM_MB * 32))
	drop_caches
	base=$(settled_slab_bytes 1)
	/bin/fsbtree create $MNT/mem "$n" 32768 > /dev/null || fail "fsbtree create (memory) on $FS"
	dirty=$(slab_bytes)
	sync
	synced=$(settled_slab_bytes 6)
	drop_caches
	base2=$(settled_slab_bytes 1)
	/bin/fsbtree read $MNT/mem "$n" > /dev/null || fail "fsbtree read (memory) on $FS"
	read=$(settled_slab_bytes 6)
	per_gib() { awk -v d="$1" -v mb="$MEM_MB" 'BEGIN { v = d * 1024 / mb; printf "%.0f", v / 1024 }'; }
	metric "mem-dirty$tag" "$(per_gib $((dirty - base)))" KiB/GiB
	metric "mem-synced$tag" "$(per_gib $((synced - base)))" KiB/GiB
	metric "mem-cold-read$tag" "$(per_gib $((read - base2)))" KiB/GiB
	/bin/fsbtree unlink $MNT/mem "$n" > /dev/null || fail "fsbtree unlink (memory) on $FS"
}

require_tsc_clock
echo "bench: $CONFIGS on $DEV ($FSSIZE_KB KiB), dbench ${DBENCH_SECS}s x {$DBENCH_PROCS}, fio ${FIO_MB} MiB, $NFILES files, ${MEM_MB} MiB for memory on$MEM_FS"
for FS in $CONFIGS; do
	step "$FS: dbench"
	fs_mkfs
	mount -t "$(fs_type)" -o noatime $DEV $MNT || fail "mount $FS"
	run_dbench
	step "$FS: fio"
	bench_fio
	step "$FS: tree of $NFILES files"
	bench_tree
	case $MEM_FS in *" $FS "*) ;; *) fs_umount; continue ;; esac
	step "$FS: block-state memory"
	# fsblock.keep_clean_blocks: on the kernel with the series only.
	if [ -w $KEEP ]; then
		echo N > $KEEP
		bench_memory ""
		echo Y > $KEEP
		bench_memory "-keep"
		echo N > $KEEP
	else
		bench_memory ""
	fi
	fs_umount
done
echo "bench: done"
