# SPDX-License-Identifier: GPL-2.0
# Write errors on a mounted ext2 reach fsync and syncfs once on each open
# file, and ext2's fsync reports them with ext2_error() as stock ext2's
# does ("detected IO error when writing metadata buffers", which with
# errors=remount-ro turns the filesystem read-only).  At 1 KiB and 4 KiB
# blocks, with the block layer's fault injection on the device:
# 1. File data: a file open twice (fds 3 and 4) is overwritten, and
#    fsync on fd 3 writes it while the device fails every write: EIO,
#    ext2_error's line in the kernel log, and the filesystem, mounted
#    with errors=remount-ro, read-only.  With the device mended, fsync on
#    fd 3 succeeds, and fsync on fd 4 fails with EIO once, then succeeds.
# 2. Metadata, as minix-meta-eio: a truncate to 16 blocks changes only
#    metadata (the indirect block, which keeps 4 pointers, a block bitmap,
#    the inode), a failing sync(2) writes it, the page cache is dropped
#    and the device mended; fsync on each of two open files fails with
#    EIO once, then succeeds; on a fresh image the same with syncfs.
#    (The indirect block must stay: stock ext2 reports a lost write of
#    the inode table block to the block device alone, not to the file.)
# The disk lost those writes, so e2fsck only reports.  The unmounts after
# the failures must leave no splat.
. /fsb/lib.sh
DEV=/dev/vdb
FSSIZE_KB=4096
FAIL=/sys/block/${DEV#/dev/}/make-it-fail

if [ ! -e $FAIL ]; then
	[ "$FSB_KERNEL" = fast ] || fail "$FAIL missing: the kernel has no CONFIG_FAIL_MAKE_REQUEST"
	echo "SKIP: the $FSB_KERNEL kernel has no fault injection (it needs DEBUG_KERNEL)"
	exit 77
fi

finish() {
	exec 3<&- 4<&-
	fs_umount
	if $E2FSCK -fn $DEV > /tmp/fsck.out 2>&1; then
		echo "$FS: e2fsck after the lost writes: clean"
	else
		echo "$FS: e2fsck after the lost writes (exit $?, expected: the writes were lost): $(tail -1 /tmp/fsck.out)"
	fi
}

# lose_metadata: a fresh image with a file open as fds 3 and 4, the
# file's truncate written by a failing sync(2).
lose_metadata() {
	fs_mkfs
	fs_mount
	head -c 300000 /dev/urandom > $MNT/f || fail "writing f"
	sync
	exec 3< $MNT/f 4< $MNT/f
	truncate -s $((16 * $(stat -f -c %S $MNT))) $MNT/f || fail "truncating f"
	echo 1 > $FAIL
	sync
	echo 0 > $FAIL
	echo 1 > /proc/sys/vm/drop_caches
}

for FS in ext2-1k ext2-4k; do
	step "$FS: a data write error reaches fsync on two open files once, and ext2_error"
	fs_mkfs
	mount -t ext2 -o errors=remount-ro $DEV $MNT || fail "mount $FS with errors=remount-ro"
	head -c 65536 /dev/urandom > $MNT/f || fail "writing f"
	sync
	exec 3< $MNT/f 4< $MNT/f
	dd if=/dev/urandom of=$MNT/f bs=4096 count=4 conv=notrunc 2>/dev/null ||
		fail "$FS: overwriting f"
	dmesg -c > /dev/null
	echo 1 > $FAIL
	/bin/fsbsync fsync 3 > /tmp/eio.out
	echo 0 > $FAIL
	echo "$FS: fsync with the device failing: $(cat /tmp/eio.out)"
	grep -qi 'input/output error' /tmp/eio.out ||
		fail "$FS: fsync whose data write failed did not return EIO"
	dmesg | grep -q 'error: ext2_fsync: detected IO error' ||
		{ dmesg | grep -i ext2; fail "$FS: fsync returned EIO without ext2_error's message"; }
	grep " $MNT " /proc/mounts | grep -q ' ro[ ,]' ||
		fail "$FS: ext2_error with errors=remount-ro left the filesystem writable: $(grep " $MNT " /proc/mounts)"
	echo "$FS: ext2_error reported it and the filesystem is read-only"
	/bin/fsbsync fsync 3 > /tmp/eio.out ||
		{ cat /tmp/eio.out; fail "$FS: the second fsync on fd 3 failed: the error was reported twice"; }
	eio_once fsync 4
	finish

	step "$FS: a metadata write error reaches fsync on two open files once"
	lose_metadata
	eio_once fsync 3
	eio_once fsync 4
	finish

	step "$FS: a metadata write error reaches syncfs on two open files once"
	lose_metadata
	eio_once syncfs 3
	eio_once syncfs 4
	finish
done
echo "ext2 write errors: all checks passed"
