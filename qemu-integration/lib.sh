# SPDX-License-Identifier: GPL-2.0
# Guest-side library of the integration scenarios (busybox sh).
#
# A scenario sets FS (minix1, minix2, minix3, or ext2-Nk for ext2 with
# N KiB blocks; MKE2FS_OPTS adds options to mke2fs) and DEV and calls
# fs_workload or fs_exercise; the plain
# ones are generated from qemu-integration/scenarios/table.  Every operation is applied both to the filesystem
# under test and to a model tree on tmpfs; "verify" compares the two
# (names, types, sizes, link counts, checksums, symlink targets).

MNT=/mnt/t
MODEL=/tmp/model
POOL=/tmp/pool
FSSIZE_KB=${FSSIZE_KB:-8192}

fail() { echo "FSB-CHECK-FAILED: $*"; exit 1; }

# karg NAME [DEFAULT]: the value of NAME=... on the kernel command line,
# where run.sh passes the scenarios their settings; DEFAULT if absent.
karg() {
	v=$(tr ' ' '\n' < /proc/cmdline | sed -n "s/^$1=//p" | tail -1)
	echo "${v:-$2}"
}

# Which kernel runs the scenarios (integration, nobh, stock, fast).
FSB_KERNEL=$(karg fsbkernel)

# The real tools (util-linux, e2fsprogs), never busybox's applets of the
# same names, which are installed in /bin.
MKFS_MINIX=/sbin/mkfs.minix
FSCK_MINIX=/sbin/fsck.minix
MKE2FS=/sbin/mke2fs
E2FSCK=/sbin/e2fsck
# need_tools PATH...: each must be a real program, not a busybox link.
need_tools() {
	for t in "$@"; do
		[ -x $t ] && [ ! -L $t ] || fail "$t missing or a link"
	done
}
need_tools $MKFS_MINIX $FSCK_MINIX $MKE2FS $E2FSCK
step() { echo "FSB-STEP: $* (at $(cut -d. -f1 /proc/uptime)s)"; }

fs_type() { case $FS in minix*) echo minix ;; ext2*) echo ext2 ;; esac; }

fs_mkfs() {
	grep -qw "$(fs_type)" /proc/filesystems ||
		fail "$(fs_type) is not in this kernel"
	case $FS in
	minix1)  $MKFS_MINIX -1 "$DEV" "$FSSIZE_KB" ;;
	minix2)  $MKFS_MINIX -2 "$DEV" "$FSSIZE_KB" ;;
	minix3)  $MKFS_MINIX -3 "$DEV" "$FSSIZE_KB" ;;
	ext2-*k) k=${FS#ext2-}; k=${k%k}
		 $MKE2FS -q -F -t ext2 ${MKE2FS_OPTS:-} -b $((k * 1024)) "$DEV" $((FSSIZE_KB / k)) ;;
	*) fail "unknown FS '$FS'" ;;
	esac >/tmp/mkfs.out 2>&1 || { cat /tmp/mkfs.out; fail "mkfs $FS on $DEV"; }
}

# The filesystem's own checker must find the image clean.
fs_fsck() {
	case $FS in
	minix*) $FSCK_MINIX -f "$DEV" ;;
	ext2*)  $E2FSCK -fn "$DEV" ;;
	esac >/tmp/fsck.out 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		cat /tmp/fsck.out
		fail "fsck of $FS on $DEV reports damage (exit $rc)"
	fi
	echo "fsck clean: $(tail -1 /tmp/fsck.out)"
}

fs_mount() {
	mount -t "$(fs_type)" "$DEV" $MNT || fail "mount $FS $DEV"
}

fs_umount() {
	umount $MNT || fail "umount $MNT"
}

# The write-error scenarios (minix-meta-eio, ext2-eio), on the 4 MiB
# virtio disk with the block layer's fault injection.  eio_setup: FAIL,
# or a skip on a kernel without fault injection; periodic writeback off,
# so that only the calls the scenario makes write (eio_restore puts it
# back for the next scenario).
eio_setup() {
	FAIL=/sys/block/${DEV#/dev/}/make-it-fail
	if [ ! -e $FAIL ]; then
		[ "$FSB_KERNEL" = fast ] || fail "$FAIL missing: the kernel has no CONFIG_FAIL_MAKE_REQUEST"
		echo "SKIP: the $FSB_KERNEL kernel has no fault injection (it needs DEBUG_KERNEL)"
		exit 77
	fi
	EIO_WB=$(cat /proc/sys/vm/dirty_writeback_centisecs)
	echo 0 > /proc/sys/vm/dirty_writeback_centisecs
}
eio_restore() { echo "$EIO_WB" > /proc/sys/vm/dirty_writeback_centisecs; }

# lose_metadata SIZE: a fresh image with a 300000-byte file (it has an
# indirect block) open as fds 3 and 4, truncated to SIZE bytes (a block
# boundary: only metadata changes) and that truncate written by a sync(2)
# that fails every write; then the page cache is dropped (a block's state
# must not take its error with it).
lose_metadata() {
	fs_mkfs
	fs_mount
	head -c 300000 /dev/urandom > $MNT/f || fail "writing f"
	sync
	exec 3< $MNT/f 4< $MNT/f
	truncate -s "$1" $MNT/f || fail "truncating f"
	echo 1 > $FAIL
	sync
	echo 0 > $FAIL
	echo 1 > /proc/sys/vm/drop_caches
}

# eio_once CALL FD: fsbsync's CALL (fsync, fdatasync or syncfs) on the
# shell's descriptor FD fails with EIO the first time and succeeds the
# second: a write error reaches each open file once.
eio_once() {
	if /bin/fsbsync $1 $2 > /tmp/eio.out; then
		fail "$FS: $1 on fd $2 after a failed write succeeded"
	fi
	grep -qi 'input/output error' /tmp/eio.out ||
		{ cat /tmp/eio.out; fail "$FS: $1 on fd $2 failed, but not with EIO"; }
	echo "$FS: first $(cat /tmp/eio.out)"
	/bin/fsbsync $1 $2 > /tmp/eio.out ||
		{ cat /tmp/eio.out; fail "$FS: the second $1 on fd $2 failed too: the error was reported twice"; }
	echo "$FS: second $(cat /tmp/eio.out)"
}

# eio_finish: close fds 3 and 4, unmount, and print fsck's verdict only:
# the disk lost the writes that failed.
eio_finish() {
	exec 3<&- 4<&-
	fs_umount
	case $FS in
	minix*) $FSCK_MINIX -f $DEV ;;
	ext2*)  $E2FSCK -fn $DEV ;;
	esac > /tmp/fsck.out 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		echo "$FS: fsck after the lost writes: clean"
	else
		echo "$FS: fsck after the lost writes (exit $rc, expected: the writes were lost): $(tail -1 /tmp/fsck.out)"
	fi
}

drop_caches() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
}

# op 'command': run it in the filesystem and in the model, from their tops
# (in this shell: a subshell per operation costs a fork under TCG).
op() {
	cd $MNT && eval "$1" || fail "on $FS: $1"
	cd $MODEL && eval "$1" || fail "on the model: $1"
	cd /
}

# A listing of a tree that two correct trees share: directories, symlinks
# with their targets, regular files with link count, size and checksum.
# A few processes for the whole tree, not several per file.
manifest() {
	(
	cd "$1" || exit 1
	find . -path ./lost+found -prune -o -type d -print | sort
	find . -type l -exec stat -c '%N' {} + | sort
	find . -path ./lost+found -prune -o -type f -exec stat -c '%n %h %s' {} + | sort
	find . -path ./lost+found -prune -o -type f -exec md5sum {} + | sort -k 2
	)
}

verify() {
	manifest $MODEL > /tmp/manifest.model || fail "listing the model"
	manifest $MNT > /tmp/manifest.fs || fail "listing $FS"
	if ! diff /tmp/manifest.model /tmp/manifest.fs > /tmp/manifest.diff; then
		head -40 /tmp/manifest.diff
		fail "$FS content differs from the model ($1)"
	fi
	echo "verified $(wc -l < /tmp/manifest.fs) entries ($1)"
}

make_pool() {
	rm -rf $POOL && mkdir -p $POOL
	for s in 0 1 511 512 513 1023 1024 1025 4095 4096 4097 65543 300000 1048699; do
		head -c $s /dev/urandom > $POOL/s$s
	done
}

fs_workload() {
	echo "scenario: $FS on $DEV, ${FSSIZE_KB} KiB"
	if [ "$FSB_KERNEL" = nobh ]; then
		grep -qw alloc_buffer_head /proc/kallsyms &&
			fail "the nobh kernel has buffer_head code (alloc_buffer_head)"
		grep -qw minix_fill_super /proc/kallsyms ||
			fail "/proc/kallsyms does not list minix_fill_super: cannot tell"
		echo "no buffer_head code in this kernel (alloc_buffer_head is not in /proc/kallsyms)"
	fi
	make_pool
	rm -rf $MODEL && mkdir -p $MODEL

	step "mkfs and mount"
	fs_mkfs
	fs_mount

	step "create a tree of files of varied sizes, sparse ones included"
	op 'mkdir -p d1/d2/d3 d4 e'
	for s in 0 1 511 512 513 1023 1024 1025 4095 4096 4097 65543 300000 1048699; do
		op "cp $POOL/s$s f$s"
	done
	op "cp $POOL/s4097 d1/d2/d3/deep"
	op "dd if=$POOL/s4096 of=sp1 bs=1024 seek=3000 count=4 2>/dev/null"
	op 'truncate -s 5000000 sp2'
	op "dd if=$POOL/s65543 of=sp3 bs=1024 count=3 2>/dev/null"
	op "dd if=$POOL/s65543 of=sp3 bs=1024 seek=2048 count=8 conv=notrunc 2>/dev/null"
	# Enough entries that the directory spans several blocks and pages.
	i=0
	while [ $i -lt 120 ]; do
		op "echo entry-$i > d4/n$i"
		i=$((i + 1))
	done
	verify "after create, cached"
	drop_caches
	verify "after create, read back from disk"

	step "overwrite inside files, across block boundaries"
	op "dd if=$POOL/s4097 of=f300000 bs=1 seek=12345 count=4097 conv=notrunc 2>/dev/null"
	op "dd if=$POOL/s1025 of=f1048699 bs=1 seek=1047000 count=1025 conv=notrunc 2>/dev/null"
	op "dd if=$POOL/s513 of=f1025 bs=1 seek=700 count=513 conv=notrunc 2>/dev/null"
	op "cat $POOL/s511 >> f4097"

	step "truncate down and up"
	op 'truncate -s 100000 f300000'
	op 'truncate -s 700000 f300000'
	op 'truncate -s 1000 f1048699'
	op 'truncate -s 0 f65543'
	op 'truncate -s 3333 f1025'
	op 'truncate -s 1500 f4097 && truncate -s 9000 f4097'
	op 'truncate -s 600 sp1'
	drop_caches
	verify "after overwrite and truncate"

	step "rename, unlink, mkdir/rmdir, symlink, hard link"
	op 'mv f4096 d1/d2/renamed'
	op 'mv d4 d1/moved'
	op 'mv f0 f1'
	op 'rm f513 d1/moved/n7 d1/moved/n100'
	op 'mkdir -p t/u/v && rmdir t/u/v t/u'
	op 'ln -s d1/d2/renamed sl1'
	op "ln -s $(printf '%0150d' 0) sl2"
	op 'ln f1025 d1/hl1 && ln f1025 hl2'
	op 'rm hl2'
	drop_caches
	verify "after namespace operations"

	step "statfs, remount read-only and back"
	sync
	bs=$(stat -f -c %S $MNT) free1=$(stat -f -c %f $MNT) ifree1=$(stat -f -c %d $MNT)
	op "cp $POOL/s300000 statfs-probe"
	sync
	free2=$(stat -f -c %f $MNT) ifree2=$(stat -f -c %d $MNT)
	[ $(( (free1 - free2) * bs )) -ge 300000 ] ||
		fail "statfs: free blocks went from $free1 to $free2 (of $bs bytes) after writing 300000 bytes"
	[ $((ifree1 - ifree2)) -eq 1 ] || fail "statfs: free inodes went from $ifree1 to $ifree2 after one create"
	echo "statfs: $((free1 - free2)) blocks of $bs bytes and 1 inode used by a 300000-byte file"
	mount -o remount,ro $MNT || fail "remount read-only"
	touch $MNT/ro-probe 2> /tmp/ro.err && fail "creating a file on a read-only remount succeeded"
	grep -q 'Read-only file system' /tmp/ro.err || { cat /tmp/ro.err; fail "create on read-only: wrong error"; }
	verify "read-only remount"
	mount -o remount,rw $MNT || fail "remount read-write"
	op 'echo written-after-remount > rw-probe'
	verify "after remount read-write"

	step "fill the filesystem until ENOSPC"
	dd if=/dev/zero of=$MNT/fill bs=4096 2>/tmp/dd.err
	rc=$?
	[ $rc -ne 0 ] || fail "filling $FS did not fail"
	grep -q 'No space left on device' /tmp/dd.err ||
		{ cat /tmp/dd.err; fail "filling $FS failed, but not with ENOSPC"; }
	echo "fill stopped with ENOSPC after $(stat -c %s $MNT/fill) bytes"
	[ "$(stat -c %s $MNT/fill)" -gt 0 ] || fail "no space could be filled at all"
	rm $MNT/fill || fail "rm fill"
	drop_caches
	verify "after ENOSPC"

	step "umount, fsck, remount, verify"
	fs_umount
	fs_fsck
	fs_mount
	verify "after remount"
	fs_umount
	fs_fsck
	echo "scenario $FS on $DEV: all checks passed"
}

# The data-integrity exerciser (fsbx, see fsbx/fsbx.c) on a fresh $FS:
# two fsbx processes at once, each on its own file, FSX_OPS operations
# each (fsbx_ops= on the kernel command line), from seeds FSX_SEED and
# FSX_SEED + 1; then two more from other seeds with a concurrent
# drop_caches loop.  After each pair the filesystem is unmounted, checked
# with its fsck and remounted, and both files are compared with the
# exerciser's models.  4 x FSX_OPS operations in all.
fsx_pair() {
	s1=$1 s2=$(($1 + 1)) drop=$2
	step "fsbx: 2 x $FSX_OPS ops at once, seeds $s1 and $s2, drop_caches loop: $drop"
	dropper=
	if [ "$drop" = yes ]; then
		(while :; do echo 3 > /proc/sys/vm/drop_caches; sleep 0.2; done) &
		dropper=$!
	fi
	# ext2 has direct I/O (iomap): mix O_DIRECT writes and reads in.
	direct=
	case $FS in ext2*) direct=-D ;; esac
	for s in $s1 $s2; do
		/bin/fsbx -s $s -n "$FSX_OPS" -S 1048576 -L 16384 $direct -m /tmp/fsbx.$s.model \
			$MNT/fsbx.$s > /tmp/fsbx.$s.out 2>&1 &
		eval pid$s=\$!
	done
	# A line a minute on the console, which run.sh shows as progress.
	(t0=$(cut -d. -f1 /proc/uptime)
	 while sleep 60; do
		done_=$(tail -qn1 /tmp/fsbx.$s1.out /tmp/fsbx.$s2.out 2>/dev/null | grep 'ops$' | tr '\n' ' ')
		echo "FSB-PROGRESS: $FS seeds $s1/$s2, $(( $(cut -d. -f1 /proc/uptime) - t0 ))s${done_:+: $done_}"
	done) &
	ticker=$!
	rc=0
	for s in $s1 $s2; do
		eval wait \$pid$s || { rc=1; echo "fsbx seed $s failed:"; }
	done
	kill $ticker; wait $ticker 2>/dev/null
	for s in $s1 $s2; do cat /tmp/fsbx.$s.out; done
	[ -n "$dropper" ] && { kill $dropper; wait $dropper 2>/dev/null; }
	[ $rc -eq 0 ] || fail "fsbx on $FS, seeds $s1/$s2"
	fs_umount
	fs_fsck
	fs_mount
	for s in $s1 $s2; do
		cmp $MNT/fsbx.$s /tmp/fsbx.$s.model ||
			fail "fsbx file (seed $s) differs from its model after remount"
		rm $MNT/fsbx.$s /tmp/fsbx.$s.model || fail "rm fsbx.$s"
		echo "fsbx seed $s: file matches the model after fsck and remount"
	done
}

fs_exercise() {
	FSX_OPS=$(karg fsbx_ops 5000)
	seed=${FSX_SEED:-1}
	echo "scenario: fsbx on $FS on $DEV, ${FSSIZE_KB} KiB, $((4 * FSX_OPS)) operations"
	fs_mkfs
	fs_mount
	fsx_pair $seed no
	fsx_pair $((seed + 1000)) yes
	fs_umount
	fs_fsck
	echo "scenario $FS on $DEV: all checks passed ($((4 * FSX_OPS)) fsbx operations, 0 mismatches)"
}

# The byte-flip scenarios' tree under $MNT: directories with 80 entries,
# files with direct, indirect and double-indirect blocks, a short and a
# long symlink, a hard link.
populate_flip_tree() {
	cd $MNT || fail "cd $MNT"
	mkdir -p a/b/c d e || fail "mkdir"
	i=0
	while [ $i -lt 80 ]; do
		echo "entry $i" > d/n$i || fail "d/n$i"
		i=$((i + 1))
	done
	head -c 700 /dev/urandom > a/small
	head -c 6000 /dev/urandom > a/b/direct
	head -c 300000 /dev/urandom > a/b/c/indirect
	head -c 700000 /dev/urandom > e/double
	ln -s a/b/c/indirect short-link
	ln -s "$(printf '%0200d' 7)" long-link
	ln a/small e/hard
	cd /
}

# Read every name, inode and link target under $MNT, and the first 8 MiB
# of every file (more than any file of the trees here holds: a flipped bit
# of ext2's i_size_high makes a file of petabytes, whose holes stock and
# fsblock alike would read for days).  Errors are allowed (the image is
# corrupt); what counts is that they are clean: no splat (the console log
# is scanned) and no hang.  Prints how many commands failed and the first
# error.
walk_fs() {
	: > /tmp/walk.err
	for cmd in "ls -laR $MNT" "find $MNT -type d -exec /bin/fsbls {} ;" \
		   "find $MNT -exec stat {} +" \
		   "find $MNT -type f -exec head -c 8388608 {} +" \
		   "find $MNT -type l -exec readlink {} ;" "df $MNT"; do
		timeout 300 $cmd > /dev/null 2>> /tmp/walk.err
		[ $? -lt 124 ] || fail "walking $MNT: '$cmd' timed out or was killed"
	done
	echo "walk: $(wc -l < /tmp/walk.err) errors${1:+ ($1)}$(head -1 /tmp/walk.err | sed 's/^/, first: /')"
}

# expect_refused WHAT [WHY]: mounting $DEV must fail with a kernel message.
# With WHY, the stock kernel is known to accept the image (WHY says why);
# there the image is mounted, walked and unmounted instead.  Stock minix
# refuses some images without a message (an invalid V3 block size): on the
# stock kernel the refusal is enough, and the output says so.
expect_refused() {
	dmesg -c > /dev/null
	if /sbin/mount.util-linux -t minix $DEV $MNT 2> /tmp/mount.err; then
		if [ "$FSB_KERNEL" = stock ] && [ -n "$2" ]; then
			echo "$1: stock minix mounts it ($2); walking it"
			walk_fs
			fs_umount
			return 0
		fi
		umount $MNT
		fail "$1: the mount succeeded"
	fi
	msg=$(dmesg | grep -i 'minix' | sed 's/^\[[^]]*\] *//' | tr '\n' ';' | sed 's/;$//; s/;/; /g')
	if [ -z "$msg" ] && [ "$FSB_KERNEL" = stock ]; then
		echo "$1: refused; stock minix gives no reason"
		return 0
	fi
	[ -n "$msg" ] || { dmesg | tail -5; fail "$1: the mount failed without a kernel message"; }
	echo "$1: refused: $msg"
}

# make bench and make bench-profile: every time comes from the guest's
# clocksource, which must be the TSC (guest_clock_args in kernels.sh says
# why and how): with jiffies or refined-jiffies every time would be a
# multiple of 4 ms.  (Early in the boot it is still tsc-early, the same
# counter.)
require_tsc_clock() {
	cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
	echo "clocksource: $cs"
	case $cs in tsc|tsc-early) ;; *) fail "the clocksource is $cs, not the TSC: the times would be too coarse" ;; esac
}
