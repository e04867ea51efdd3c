# SPDX-License-Identifier: GPL-2.0
# Write errors on a mounted ext2 reach fsync and syncfs once on each open
# file, and each fsync that returns EIO reports it with ext2_error(), as
# stock ext2's does ("detected IO error when writing metadata buffers",
# which with errors=remount-ro turns the filesystem read-only).  At 1 KiB
# and 4 KiB blocks, with the block layer's fault injection on the device
# and periodic writeback off (lib.sh's eio_setup):
# 1. File data: a file open twice (fds 3 and 4) is overwritten, and
#    fsync on fd 3 writes it while the device fails every write: EIO,
#    ext2_error's line in the kernel log, and the filesystem, mounted
#    with errors=remount-ro, read-only.  With the device mended, fsync on
#    fd 3 succeeds, and fsync on fd 4 fails with EIO once (ext2_error
#    again), then succeeds.
# 2. Metadata, as minix-meta-eio: a truncate to 16 blocks changes only
#    metadata (among it the indirect block, which keeps 4 pointers, a
#    block bitmap, the group descriptor and the inode), a failing sync(2)
#    writes it, the page cache is dropped and the device mended; fsync on
#    each of two open files fails with EIO once (with ext2_error's line),
#    then succeeds; on a fresh image the same with syncfs.  The indirect
#    block must stay: stock ext2 reports a lost write of the inode table
#    block, a bitmap or a descriptor to the block device alone, not to
#    the file.
# The disk lost those writes, so e2fsck only reports.  The unmounts after
# the failures must leave no splat.
. /fsb/lib.sh
DEV=/dev/vdb
FSSIZE_KB=4096
eio_setup

# ext2_error_seen WHAT: ext2_fsync's ext2_error() line is in the kernel
# log since the last "dmesg -c".
ext2_error_seen() {
	dmesg | grep -q 'error: ext2_fsync: detected IO error' ||
		{ dmesg | grep -i ext2; fail "$FS: $1 returned EIO without ext2_error's message"; }
}

# fsync_eio_once FD: eio_once fsync FD, and ext2_error said so.
fsync_eio_once() {
	dmesg -c > /dev/null
	eio_once fsync $1
	ext2_error_seen "fsync on fd $1"
}

for FS in ext2-1k ext2-4k; do
	bk=${FS#ext2-}
	sixteen=$((16 * ${bk%k} * 1024))	# 16 blocks, in bytes
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
	ext2_error_seen "fsync on fd 3"
	grep " $MNT " /proc/mounts | grep -q ' ro[ ,]' ||
		fail "$FS: ext2_error with errors=remount-ro left the filesystem writable: $(grep " $MNT " /proc/mounts)"
	echo "$FS: ext2_error reported it and the filesystem is read-only"
	/bin/fsbsync fsync 3 > /tmp/eio.out ||
		{ cat /tmp/eio.out; fail "$FS: the second fsync on fd 3 failed: the error was reported twice"; }
	echo "$FS: second $(cat /tmp/eio.out)"
	fsync_eio_once 4
	eio_finish

	step "$FS: a metadata write error reaches fsync on two open files once, and ext2_error"
	lose_metadata $sixteen
	fsync_eio_once 3
	fsync_eio_once 4
	eio_finish

	step "$FS: a metadata write error reaches syncfs on two open files once"
	lose_metadata $sixteen
	eio_once syncfs 3
	eio_once syncfs 4
	eio_finish
done
eio_restore
echo "ext2 write errors: all checks passed"
