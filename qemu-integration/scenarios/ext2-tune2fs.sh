# SPDX-License-Identifier: GPL-2.0
# tune2fs on a mounted ext2: what becomes of a superblock that user space
# writes through the block device while the filesystem is mounted.
#
# Stock ext2 keeps its superblock in a buffer of the block device's page
# cache, the cache tune2fs writes through: the new label is the kernel's
# copy at once, and stays.  ext2 on fsblock keeps it in fsblock's private
# metadata cache, which such a write does not reach: the next superblock
# write (sync_fs, unmount) puts the kernel's copy back, and the label is
# the old one.  That is the documented behaviour (unmount first), and
# this scenario checks that it is exactly that, on each kernel: no mixed
# superblock, e2fsck -fn clean, the files intact.  And with the
# filesystem unmounted, tune2fs -L works on both.
#
# A filesystem mounted read-only, though, is changed on the device by
# e2fsck of a read-only root, and remounted read-write afterwards: what
# was changed must survive the remount on every kernel (ext2 on fsblock
# reads its metadata again when it becomes writable).  The scenario
# changes the label with tune2fs and an inode with debugfs -w while the
# filesystem is mounted read-only, remounts it read-write, changes
# another inode of the same inode-table block, syncs and unmounts: the
# label and the inode must be as changed.
. /fsb/lib.sh
DEV=/dev/vda
FSSIZE_KB=8192
TUNE2FS=/sbin/tune2fs
DUMPE2FS=/sbin/dumpe2fs
DEBUGFS=/sbin/debugfs
need_tools $TUNE2FS $DUMPE2FS $DEBUGFS

# The label on the device, not in any cache: the block device's page
# cache, which tune2fs wrote through, is dropped first.
disk_label() {
	drop_caches
	$DUMPE2FS -h "$DEV" 2>/dev/null | sed -n 's/^Filesystem volume name: *//p'
}

for FS in ext2-1k ext2-4k; do
	step "$FS: mkfs, label 'before', mount, write files"
	MKE2FS_OPTS="-L before" fs_mkfs
	fs_mount
	for i in 1 2 3; do
		head -c $((i * 5000)) /dev/urandom > $MNT/f$i || fail "write f$i"
	done
	sums=$(cd $MNT && md5sum f1 f2 f3)
	sync

	step "$FS: tune2fs -L mounted on the mounted filesystem, then sync"
	$TUNE2FS -L mounted "$DEV" > /tmp/tune2fs.out 2>&1 ||
		{ cat /tmp/tune2fs.out; fail "tune2fs -L on the mounted $FS"; }
	# sync(2), in disk_label, calls ext2's sync_fs, which writes the
	# kernel's superblock.
	now=$(disk_label)
	case $FSB_KERNEL in
	stock*)	want=mounted ;;		# the kernel's copy is tune2fs's
	*)	want=before ;;		# the kernel's copy wins
	esac
	echo "label on the device after sync: '$now' (the $FSB_KERNEL kernel: '$want' expected)"
	[ "$now" = "$want" ] || fail "label '$now' after sync on the $FSB_KERNEL kernel, '$want' expected"
	fs_umount
	now=$(disk_label)
	echo "label on the device after unmount: '$now'"
	[ "$now" = "$want" ] || fail "label '$now' after unmount on the $FSB_KERNEL kernel, '$want' expected"
	fs_fsck

	step "$FS: tune2fs -L offline, mount, the files and the label stay"
	$TUNE2FS -L offline "$DEV" > /tmp/tune2fs.out 2>&1 ||
		{ cat /tmp/tune2fs.out; fail "tune2fs -L on the unmounted $FS"; }
	fs_mount
	[ "$(cd $MNT && md5sum f1 f2 f3)" = "$sums" ] || fail "files changed on $FS"
	echo more > $MNT/f4 || fail "write f4"
	fs_umount
	now=$(disk_label)
	[ "$now" = offline ] || fail "label '$now' after an offline tune2fs and a mount, 'offline' expected"
	echo "label after an offline tune2fs, a mount and an unmount: '$now'"
	fs_fsck

	step "$FS: mounted read-only, tune2fs -L and debugfs -w change it, remount read-write"
	mount -t ext2 -o ro "$DEV" $MNT || fail "mount -o ro $FS"
	[ "$(cd $MNT && md5sum f1 f2 f3)" = "$sums" ] || fail "files changed on $FS"
	$TUNE2FS -L ro-changed "$DEV" > /tmp/tune2fs.out 2>&1 ||
		{ cat /tmp/tune2fs.out; fail "tune2fs -L on the read-only $FS"; }
	# As e2fsck would fix an inode: f2's mtime, in f3's inode-table block.
	$DEBUGFS -w -R "set_inode_field /f2 mtime 200001010000" "$DEV" > /tmp/debugfs.out 2>&1 ||
		{ cat /tmp/debugfs.out; fail "debugfs -w on the read-only $FS"; }
	mount -o remount,rw $MNT || fail "remount,rw $FS"
	echo again >> $MNT/f3 || fail "append to f3"
	sync
	fs_umount
	now=$(disk_label)
	echo "label after remount,rw, a write and an unmount: '$now'"
	[ "$now" = ro-changed ] || fail "label '$now' after remount,rw on the $FSB_KERNEL kernel, 'ro-changed' expected"
	mt=$(DEBUGFS_PAGER=__none__ $DEBUGFS -R "stat /f2" "$DEV" 2>/dev/null | sed -n 's/^ *mtime: .* -- //p')
	echo "f2's mtime on the device: $mt"
	case $mt in *2000) ;; *) fail "f2's mtime '$mt': the change made while read-only was lost" ;; esac
	fs_fsck
done
echo "tune2fs on a mounted ext2: as documented on the $FSB_KERNEL kernel"
