# SPDX-License-Identifier: GPL-2.0
# Write errors on a mounted minix's metadata reach fsync and syncfs, once
# each, on every open file.  A file with an indirect block is opened twice
# (fds 3 and 4) and truncated at a block boundary, which changes only
# metadata (its indirect block, the zone bitmap, its inode); the device
# then fails every write (the block layer's fault injection) while sync(2)
# writes that metadata, and sync(2) takes the private metadata mapping's
# error for itself.  The page cache is dropped (a block's state must not
# take its error with it) and the device mended.  Then fsync on each of
# the two open files must fail with EIO once and then succeed; on a fresh
# image the same with syncfs.  fsbsync makes the calls on the shell's
# descriptors (busybox's sync opens a file of its own and ignores what
# syncfs returns).  The disk lost those writes, so fsck only reports.
. /fsb/lib.sh
DEV=/dev/vdb
FSSIZE_KB=4096
FAIL=/sys/block/${DEV#/dev/}/make-it-fail

if [ ! -e $FAIL ]; then
	[ "$FSB_KERNEL" = fast ] || fail "$FAIL missing: the kernel has no CONFIG_FAIL_MAKE_REQUEST"
	echo "SKIP: the $FSB_KERNEL kernel has no fault injection (it needs DEBUG_KERNEL)"
	exit 77
fi

# lose_metadata: a fresh image with a file open as fds 3 and 4, the
# file's truncate written by a failing sync(2).
lose_metadata() {
	fs_mkfs
	fs_mount
	head -c 300000 /dev/urandom > $MNT/f || fail "writing f"
	sync
	exec 3< $MNT/f 4< $MNT/f
	truncate -s 20480 $MNT/f || fail "truncating f"
	echo 1 > $FAIL
	sync
	echo 0 > $FAIL
	echo 1 > /proc/sys/vm/drop_caches
}

finish() {
	exec 3<&- 4<&-
	fs_umount
	if $FSCK_MINIX -f $DEV > /tmp/fsck.out 2>&1; then
		echo "$FS: fsck after the lost writes: clean"
	else
		echo "$FS: fsck after the lost writes (exit $?, expected: the writes were lost): $(tail -1 /tmp/fsck.out)"
	fi
}

for FS in minix1 minix2 minix3; do
	step "$FS: metadata write error, then fsync on two open files"
	lose_metadata
	eio_once fsync 3
	eio_once fsync 4
	finish

	step "$FS: metadata write error, then syncfs on two open files"
	lose_metadata
	eio_once syncfs 3
	eio_once syncfs 4
	finish
done
