# SPDX-License-Identifier: GPL-2.0
# What minix's fsync and fdatasync write of the inode, checked at the
# device: the sectors written (/sys/block/vda/stat) and the inode as the
# disk holds it (mximg inode, which reads with O_DIRECT).  For v1, v2 and
# v3, on a file that is inode 33, the first of an inode-table block:
# 1. fdatasync after an overwrite that changed only the mtime writes the
#    data and nothing else (as stock's generic_file_fsync); fsync then
#    writes the inode; fdatasync after an append writes the new size.
# 2. The flusher copies a dirty inode into its table block without
#    writing the block (->write_inode in WB_SYNC_NONE mode): the inode
#    is clean, the disk does not have it.  fsync and fdatasync must write
#    that block.  The scenario checks that the flusher did its part (it
#    wrote the file's data, 8 sectors, and not the table block) before it
#    calls them.  Stock minix writes nothing there (the block is dirtied
#    without a record of the file): on the stock kernel the scenario
#    expects fsync to write no sector, which shows that the window is
#    real.  (On stock the disk is not read there: stock keeps the table
#    block in /dev/vda's page cache, and an O_DIRECT read of /dev/vda
#    writes that cache back first.  fsblock keeps it in its own mapping.)
#    The same once more with the inode evicted after the flusher's copy
#    (drop_caches) and read again: the fsync of the new in-core inode
#    must still write the block.
# 3. Where the block layer's fault injection is built in: the flusher's
#    copy, then a sync(2) whose write of the table block fails; the next
#    fsync must return EIO, and write the block again (the disk then has
#    the inode), the one after it succeed, and so must the fsync of the
#    inode evicted and read again.  Stock returns success (the error
#    goes to the block device, not to the file).
# 4. With fault injection, on the fsblock kernels (stock's fsync does not
#    write the block, step 2): fsync's own write of the table block fails
#    and it returns EIO; the next fsync writes the block again (the disk
#    has the inode) and returns success, as does the one after it.
. /fsb/lib.sh
DEV=/dev/vda
FSSIZE_KB=8192
VM=/proc/sys/vm
FAIL=/sys/block/vda/make-it-fail

sectors_written() { awk '{ print $7 }' /sys/block/vda/stat; }
disk_inode() { /bin/mximg inode $DEV 33 | awk -v f="$1" '$1 == "size" { print (f == "size" ? $2 : $4) }'; }

expire=$(cat $VM/dirty_expire_centisecs)
interval=$(cat $VM/dirty_writeback_centisecs)
BDI=/sys/block/vda/bdi
min_ratio=$(cat $BDI/min_ratio)
restore() {
	echo "$expire" > $VM/dirty_expire_centisecs
	echo "$interval" > $VM/dirty_writeback_centisecs
	echo "$min_ratio" > $BDI/min_ratio
}

# Where the kernel has tracing: what was written in the window, and why.
TR=/sys/kernel/tracing
[ -d $TR/events ] || mount -t tracefs nodev $TR 2>/dev/null
trace_on() {
	[ -w $TR/tracing_on ] || return 0
	echo > $TR/trace
	for e in block/block_rq_issue writeback/writeback_single_inode writeback/writeback_dirty_inode_enqueue writeback/writeback_mark_inode_dirty writeback/writeback_queue_io writeback/writeback_start; do
		echo 1 > $TR/events/$e/enable
	done
	echo 1 > $TR/tracing_on
}
trace_off() { [ -w $TR/tracing_on ] && echo 0 > $TR/tracing_on; return 0; }
trace_show() { [ -r $TR/trace ] && grep -v '^#' $TR/trace | tail -60; return 0; }

# Evict f's inode, keeping the dirty table block, and open f again as fd
# 3.  The file's clean data page would keep the inode off the inode LRU,
# so the page cache goes first (drop_caches 1 writes nothing), then the
# dentry and the inode; the group the disk cannot hold shows that the
# inode was read again.
evict_f() {
	exec 3<&-
	echo 3 > $VM/drop_caches
	echo 2 > $VM/drop_caches
	exec 3< $MNT/f
	g=$(stat -c %g $MNT/f)
	[ "$g" != 70000 ] || fail "$FS: f's inode was not evicted (its group is still 70000)"
	echo "$FS: f's inode evicted and read again (group $g on the disk)"
}

# Let the flusher copy f's inode into its table block: an overwrite dirties
# the data and the inode (for its mtime); both expire after 6 s, the
# flusher looks every second and writes the data, then the inode, into
# the block, which it dirties (due 6 s later).  At 9 s periodic writeback
# stops, and the scenario checks that the flusher wrote the data and
# nothing else.  Leaves the new in-core mtime in $set and f open as fd 3.
flusher_copies() {
	for try in 1 2 3; do
		# A writeback of the metadata inode that bypasses the flusher
		# (mblock_sync(), or stock's sync of the block device) leaves
		# it on the dirty list with its old dirtied_when, so a block
		# dirtied later is written at once.  A remount starts afresh;
		# the superblock it dirties (v1, v2) is written by sync(1),
		# through the flusher, before the window opens.
		fs_umount
		mount -t minix -o noatime $DEV $MNT || fail "remount $FS"
		# A group the inode table cannot hold (v1 keeps 8 bits, v2
		# and v3 16): the in-core inode keeps it until it is evicted,
		# which evict_f checks.
		chown :70000 $MNT/f || fail "$FS: chown"
		sync
		echo 600 > $VM/dirty_expire_centisecs
		echo 100 > $VM/dirty_writeback_centisecs
		# vda's share of the background threshold is a few pages (it
		# follows the disk's share of recent writeout), so background
		# writeback may write the table block the moment the flusher
		# dirties it: a minimum share for vda stops that.
		echo 20 > $BDI/min_ratio
		# A new second: the mtime must differ from the one on the disk.
		sleep 2
		trace_on
		echo "dd starts" > $TR/trace_marker 2>/dev/null
		dd if=/dev/urandom of=$MNT/f bs=4096 count=1 conv=notrunc 2>/dev/null ||
			fail "$FS: overwriting f"
		echo "dd done" > $TR/trace_marker 2>/dev/null
		set=$(stat -c %Y $MNT/f)
		exec 3< $MNT/f
		w0=$(sectors_written)
		sleep 9
		echo 0 > $VM/dirty_writeback_centisecs
		w1=$(sectors_written)
		trace_off
		if [ $((w1 - w0)) -eq 8 ] &&
		   { [ "$FSB_KERNEL" = stock ] || [ "$(disk_inode mtime)" != "$set" ]; }; then
			return 0
		fi
		echo "$FS: the flusher wrote $((w1 - w0)) sectors in 9 s, not the 8 of the data alone (try $try of 3)"
		trace_show
		exec 3<&-
		restore
	done
	fail "$FS: the flusher never left the table block dirty: the check cannot run"
}

for FS in minix1 minix2 minix3; do
	step "$FS: fdatasync leaves a timestamp alone, fsync writes it, fdatasync writes a size"
	fs_mkfs
	mount -t minix -o noatime $DEV $MNT || fail "mount $FS"
	# Inodes 2 to 32 (a whole table block for v1, two for v2 and v3).
	i=2
	while [ $i -le 32 ]; do : > $MNT/pad$i; i=$((i + 1)); done
	head -c 65536 /dev/urandom > $MNT/f || fail "writing f"
	[ "$(stat -c %i $MNT/f)" = 33 ] || fail "$FS: f is inode $(stat -c %i $MNT/f), not 33"
	bs=$(stat -f -c %S $MNT)
	sync
	# No periodic writeback while the device's writes are counted.
	echo 0 > $VM/dirty_writeback_centisecs
	old=$(disk_inode mtime)
	sleep 2
	dd if=/dev/urandom of=$MNT/f bs=4096 count=1 conv=notrunc 2>/dev/null ||
		fail "$FS: overwriting f"
	exec 3< $MNT/f
	w0=$(sectors_written)
	/bin/fsbsync fdatasync 3 > /dev/null || fail "$FS: fdatasync"
	w1=$(sectors_written)
	echo "$FS: fdatasync after a 4 KiB overwrite wrote $((w1 - w0)) sectors"
	[ $((w1 - w0)) -eq 8 ] ||
		fail "$FS: fdatasync wrote $((w1 - w0)) sectors, not the 8 of the data: it wrote the inode for a timestamp"
	[ "$(disk_inode mtime)" = "$old" ] || fail "$FS: fdatasync wrote the mtime"
	/bin/fsbsync fsync 3 > /dev/null || fail "$FS: fsync"
	new=$(stat -c %Y $MNT/f)
	echo "$FS: fsync then wrote $(( $(sectors_written) - w1 )) sectors; mtime on disk $(disk_inode mtime), in core $new (was $old)"
	[ "$(disk_inode mtime)" = "$new" ] || fail "$FS: fsync did not write the inode's mtime"
	head -c 4096 /dev/urandom >> $MNT/f || fail "$FS: appending to f"
	/bin/fsbsync fdatasync 3 > /dev/null || fail "$FS: fdatasync after the append"
	[ "$(disk_inode size)" = 69632 ] ||
		fail "$FS: after an append and fdatasync the disk says size $(disk_inode size), not 69632"
	echo "$FS: fdatasync after an append wrote the size (69632)"
	exec 3<&-
	restore

	calls="fdatasync fsync evicted"
	[ "$FSB_KERNEL" = stock ] && calls="fsync evicted"
	for call in $calls; do
		if [ $call = evicted ]; then
			step "$FS: fsync writes the table block the flusher dirtied before the inode was evicted"
			flusher_copies
			evict_f
			call=fsync
		else
			step "$FS: $call writes the table block the flusher dirtied"
			flusher_copies
		fi
		/bin/fsbsync $call 3 > /dev/null || fail "$FS: $call"
		w2=$(sectors_written)
		# Before restore: the flusher, woken by it, may write the block.
		[ "$FSB_KERNEL" = stock ] || got=$(disk_inode mtime)
		echo "$FS: $call wrote $((w2 - w1)) sectors"
		exec 3<&-
		restore
		if [ "$FSB_KERNEL" = stock ]; then
			[ $((w2 - w1)) -eq 0 ] ||
				fail "$FS: stock's fsync wrote $((w2 - w1)) sectors: the check shows nothing"
			echo "$FS: stock minix leaves the block to background writeback, as expected"
			continue
		fi
		echo "$FS: the disk has mtime $got (in core: $set)"
		[ "$got" = "$set" ] || fail "$FS: $call returned with the inode's table block not written"
		[ $((w2 - w1)) -eq $((bs / 512)) ] ||
			fail "$FS: $call wrote $((w2 - w1)) sectors, not the table block's $((bs / 512))"
	done

	if [ -w $FAIL ]; then
		step "$FS: a failed write of the table block reaches the next fsync once"
		flusher_copies
		echo 1 > $FAIL
		sync
		echo 0 > $FAIL
		restore
		r1=$(/bin/fsbsync fsync 3)
		r2=$(/bin/fsbsync fsync 3)
		echo "$FS: after the failed write: $r1; again: $r2"
		if [ "$FSB_KERNEL" != stock ]; then
			# The first fsync wrote the block again: the disk has the
			# inode, and the inode read again after an eviction does
			# not report the failure a second time.
			got=$(disk_inode mtime)
			[ "$got" = "$set" ] ||
				fail "$FS: fsync after the failed write left the disk's mtime at $got, not $set"
			evict_f
			r3=$(/bin/fsbsync fsync 3)
			echo "$FS: the disk has the inode; after an eviction: $r3"
			[ "$r3" = "fsync(3): ok" ] ||
				fail "$FS: fsync of the inode read again after an eviction: '$r3', not ok: the failure was reported twice"
		fi
		exec 3<&-
		if [ "$FSB_KERNEL" = stock ]; then
			[ "$r1" = "fsync(3): ok" ] || fail "$FS: stock's fsync reported the table block's error: '$r1'"
			# Stock sent the error to the block device's mapping, where
			# the next opener (fsck) would find it: collect it.
			exec 4< $DEV
			r3=$(/bin/fsbsync fsync 4)
			exec 4<&-
			[ "$r3" = "fsync(4): Input/output error" ] ||
				fail "$FS: stock: fsync of $DEV: '$r3', not EIO"
			echo "$FS: stock minix does not report the table block's write error to fsync but to $DEV, as expected"
		else
			[ "$r1" = "fsync(3): Input/output error" ] ||
				fail "$FS: fsync after the failed write: '$r1', not EIO"
			[ "$r2" = "fsync(3): ok" ] || fail "$FS: the second fsync: '$r2', not ok"
		fi
		if [ "$FSB_KERNEL" != stock ]; then
			step "$FS: a failed write of the table block by fsync itself is written again by the next fsync"
			flusher_copies
			echo 1 > $FAIL
			r1=$(/bin/fsbsync fsync 3)
			echo 0 > $FAIL
			restore
			r2=$(/bin/fsbsync fsync 3)
			got=$(disk_inode mtime)
			r3=$(/bin/fsbsync fsync 3)
			exec 3<&-
			echo "$FS: fsync with the disk failing: $r1; then: $r2, disk mtime $got (in core $set); again: $r3"
			[ "$r1" = "fsync(3): Input/output error" ] ||
				fail "$FS: fsync whose write of the table block failed: '$r1', not EIO"
			[ "$got" = "$set" ] ||
				fail "$FS: the fsync after the failed one left the disk's mtime at $got, not $set: the block was not written again"
			[ "$r2" = "fsync(3): ok" ] ||
				fail "$FS: the fsync that wrote the block again: '$r2', not ok: the failure was reported twice"
			[ "$r3" = "fsync(3): ok" ] || fail "$FS: the third fsync: '$r3', not ok"
		fi
	else
		echo "$FS: no fault injection in this kernel ($FAIL): the write-error steps are skipped"
	fi
	fs_umount
	fs_fsck
done
