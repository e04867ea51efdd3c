# SPDX-License-Identifier: GPL-2.0
# make bench-profile, guest side: where the time and the bytes go, for
# each filesystem configuration in bench_fs= (default minix2), on a brd
# RAM disk.  Prints
#   FSB-TIME <fs> <op> <seconds>          fsbtree's own clock, no tracing,
#                                         prof_rounds= times (3)
#   FSB-PROF <fs> <op> <function> <hits> <usecs>
#                                         the function profiler (ftrace),
#                                         every function called
#   FSB-SLAB <fs> <stage> <cache> <objsize> <objects> <bytes>
#                                         /proc/slabinfo's growth
# and scripts/bench-profile.sh on the host compares the two kernels.
# The operations: fsbtree's create, sync and unlink of bench_files= files,
# and seqread-cold, make bench's fio-seqread-cold: a cold sequential read
# of a bench_seq_mb= (32) MiB file in 64 KiB reads.
. /fsb/lib.sh
DEV=/dev/ram0
CONFIGS=$(karg bench_fs minix2 | tr , ' ')
NFILES=$(karg bench_files 5000)
MEM_MB=$(karg bench_mem_mb 128)
ROUNDS=$(karg prof_rounds 3)
SEQ_MB=$(karg bench_seq_mb 32)
FSSIZE_KB=$(( $(cat /sys/block/ram0/size) / 2 ))
T=/sys/kernel/tracing
KEEP=/sys/module/fsblock/parameters/keep_clean_blocks

require_tsc_clock
mount -t tracefs nodev $T || fail "cannot mount tracefs"
[ -w $T/function_profile_enabled ] || fail "no function profiler (CONFIG_FUNCTION_PROFILER)"
# Inclusive times (a function's callees count in it) of CPU time only:
# the time a task sleeps (waiting for an I/O, say) does not count.
echo 1 > $T/options/graph-time || fail "no graph-time option (CONFIG_FUNCTION_GRAPH_TRACER)"
echo 0 > $T/options/sleep-time || fail "no sleep-time option"

# fsbtree OP on $MNT/tree (sync: syncfs of $MNT), timed by fsbtree itself.
tree() {
	case $1 in sync) set -- sync $MNT "$NFILES" ;; *) set -- "$1" $MNT/tree "$NFILES" ;; esac
	/bin/fsbtree "$@" > /tmp/tree.out 2>&1 || { cat /tmp/tree.out; fail "fsbtree $1 on $FS"; }
}
tree_time() {
	tree "$1"
	t=$(sed -n 's/.*: \([0-9.]*\) s$/\1/p' /tmp/tree.out)
	[ -n "$t" ] || { cat /tmp/tree.out; fail "no time from fsbtree $1 on $FS"; }
	echo "FSB-TIME $FS $1${2:-} $t"
}

# The profile of operation $1: every CPU's table summed, with gcc's clone
# suffixes (.isra.0, .constprop.0) taken off the names.
prof_dump() {
	cat $T/trace_stat/function* | awk -v fs="$FS" -v op="$1" '
		$1 == "Function" || $1 ~ /^-+$/ || NF < 4 { next }
		{ f = $1; sub(/\..*$/, "", f); hits[f] += $2; us[f] += $3 }
		END { for (f in us) printf "FSB-PROF %s %s %s %.0f %.1f\n", fs, op, f, hits[f], us[f] }' |
		sort -k6,6nr
}

# fsbtree OP under the function profiler.  Enabling the profiler resets it.
tree_profile() {
	echo 1 > $T/function_profile_enabled || fail "cannot start the function profiler"
	tree "$1"
	echo 0 > $T/function_profile_enabled
	prof_dump "$1"
}

# A cold sequential read of $MNT/seq.dat with fio, as make bench's
# fio-seqread-cold; prints its time in seconds (terse format 3: field 7 is
# the read bandwidth in KiB/s).
seq_read() {
	drop_caches
	fio --name=seqread --filename=$MNT/seq.dat --size=${SEQ_MB}m --invalidate=0 \
	    --ioengine=psync --output-format=terse --terse-version=3 --rw=read --bs=64k \
		> /tmp/fio.out 2>&1 || { tail -5 /tmp/fio.out; fail "fio seqread on $FS"; }
	t=$(awk -F';' -v mb="$SEQ_MB" '$1 == 3 && $7 > 0 { printf "%.4f", mb * 1024 / $7 }' /tmp/fio.out)
	[ -n "$t" ] || { tail -5 /tmp/fio.out; fail "no fio result for seqread on $FS"; }
	echo "$t"
}

seq_profile() {
	dd if=/dev/zero of=$MNT/seq.dat bs=1M count="$SEQ_MB" 2> /dev/null ||
		fail "cannot write $SEQ_MB MiB on $FS"
	sync
	for r in $(seq $ROUNDS); do
		echo "FSB-TIME $FS seqread-cold $(seq_read)"
	done
	echo 1 > $T/function_profile_enabled || fail "cannot start the function profiler"
	seq_read > /dev/null
	echo 0 > $T/function_profile_enabled
	prof_dump seqread-cold
	rm -f $MNT/seq.dat
}

# The slab caches' bytes: name, object size, active objects.
slab_snap() { awk 'NR > 2 { print $1, $4, $2 }' /proc/slabinfo > "$1" && [ -s "$1" ] ||
		fail "cannot read /proc/slabinfo"; }

# The caches that grew by more than 64 KiB from snapshot $1 to $2, per GiB
# of the MEM_MB of file data, as stage $3.
slab_growth() {
	awk -v fs="$FS" -v st="$3" -v mb="$MEM_MB" '
		NR == FNR { n0[$1] = $3; next }
		{ d = ($3 - n0[$1]) * $2 }
		d > 65536 || d < -65536 {
			printf "FSB-SLAB %s %s %s %d %.0f %.0f\n", fs, st, $1, $2,
				($3 - n0[$1]) * 1024 / mb, d * 1024 / mb }' "$1" "$2"
}

# Where the bytes of block state go, per GiB of cached data: MEM_MB of
# files of 32 KiB, dirty, after sync, and after a cold read.  A reading
# after block state was freed waits 6 s (kfree_rcu(), see bench.sh).
mem_profile() {
	n=$((MEM_MB * 32))
	drop_caches; sleep 1; slab_snap /tmp/s0
	/bin/fsbtree create $MNT/mem "$n" 32768 > /dev/null || fail "fsbtree create (memory) on $FS"
	slab_snap /tmp/s1
	sync; sleep 6; slab_snap /tmp/s2
	drop_caches; sleep 1; slab_snap /tmp/s3
	/bin/fsbtree read $MNT/mem "$n" > /dev/null || fail "fsbtree read (memory) on $FS"
	sleep 6; slab_snap /tmp/s4
	slab_growth /tmp/s0 /tmp/s1 dirty
	slab_growth /tmp/s0 /tmp/s2 synced
	slab_growth /tmp/s3 /tmp/s4 cold-read
	/bin/fsbtree unlink $MNT/mem "$n" > /dev/null || fail "fsbtree unlink (memory) on $FS"
}

echo "profile: $CONFIGS on $DEV ($FSSIZE_KB KiB), $NFILES files, ${MEM_MB} MiB for memory"
for FS in $CONFIGS; do
	fs_mkfs
	mount -t "$(fs_type)" -o noatime $DEV $MNT || fail "mount $FS"
	# The memory first: the graph tracer gives every task a return stack
	# (kmalloc-4k) while it is on, freed as the tasks exit.
	step "$FS: block-state memory by slab cache"
	mem_profile
	# No periodic write-back while timing and profiling: what is written
	# is what each step itself writes.
	echo 0 > /proc/sys/vm/dirty_writeback_centisecs || fail "cannot stop the periodic write-back"
	# The headers the memory step's unlink freed wait in kfree_rcu()
	# for up to five seconds: let them go before the timed rounds.
	sleep 6
	step "$FS: create, syncfs and unlink $NFILES files, timed, $ROUNDS rounds"
	for r in $(seq $ROUNDS); do
		for op in create sync unlink; do sync; tree_time $op; done
	done
	# With the series, the same with fsblock.keep_clean_blocks on: a
	# clean metadata folio then keeps its blocks after the last put.
	if [ -w $KEEP ]; then
		echo Y > $KEEP
		for r in $(seq $ROUNDS); do
			for op in create sync unlink; do sync; tree_time $op -keep; done
		done
		echo N > $KEEP
	fi
	step "$FS: create, syncfs and unlink $NFILES files, profiled"
	for op in create sync unlink; do sync; tree_profile $op; done
	step "$FS: cold sequential read of $SEQ_MB MiB, timed, $ROUNDS rounds, then profiled"
	seq_profile
	echo 500 > /proc/sys/vm/dirty_writeback_centisecs
	fs_umount
done
echo "profile: done"
