# SPDX-License-Identifier: GPL-2.0
# Seeded random damage to the metadata of small populated ext2 images, at
# 1 KiB and 4 KiB blocks, as minix-byteflip does for minix: for each seed,
# a fresh copy of the image gets a few bits flipped (fsbflip) in its
# metadata - the superblock, the group descriptors, the bitmaps, the inode
# table, the blocks of every directory, the indirect blocks of the files,
# the block of a long symlink and an xattr block - then it is mounted with
# errors=remount-ro (a flipped s_errors must not make it panic), walked,
# read (at most 8 MiB of each file: lib.sh's walk_fs), written to once,
# and unmounted.  Failures of the mount, of reads and of the write are
# expected; only clean errors are allowed: a
# splat fails the run (the console log is scanned), and so do a hang and a
# failed umount.  The metadata blocks are found on the pristine image with
# e2fsprogs' own dumpe2fs and debugfs.
. /fsb/lib.sh
DEV=/dev/ram0
FSSIZE_KB=2048
# flip_runs= on the kernel command line: seeds per block size (run.sh
# sets it: FLIP_RUNS, or the tier's default; make soak runs SOAK_FLIPS).
RUNS=$(karg flip_runs 10)
FLIPS=${FLIP_BYTES:-6}
DUMPE2FS=/sbin/dumpe2fs
DEBUGFS=/sbin/debugfs
SETFATTR=/sbin/setfattr
need_tools $DUMPE2FS $DEBUGFS $SETFATTR

# The metadata of the unmounted $DEV as fsbflip ranges, OFF:LEN.
meta_ranges() {
	echo 1024:1024
	$DUMPE2FS $DEV 2>/dev/null | awk -v bs=$bs '
		function r(a, b) { printf "%d:%d\n", a * bs, (b - a + 1) * bs }
		/Group descriptors at/ { split($NF, g, "-"); r(g[1], g[2]) }
		/(Block|Inode) bitmap at/ { r($4, $4) }
		/Inode table at/ { split($4, t, "-"); r(t[1], t[2]) }'
	for p in $(cat /tmp/dirs); do
		for b in $(DEBUGFS_PAGER=__none__ $DEBUGFS -R "blocks $p" $DEV 2>/dev/null); do
			echo $((b * bs)):$bs
		done
	done
	for p in /a/b/c/indirect /e/double /long-link /a/small; do
		DEBUGFS_PAGER=__none__ $DEBUGFS -R "stat $p" $DEV 2>/dev/null |
			grep -o -e 'IND):[0-9]*' -e 'File ACL: [0-9]*' | grep -o '[0-9]*$' |
			while read -r b; do [ "$b" != 0 ] && echo $((b * bs)):$bs; done
	done
	DEBUGFS_PAGER=__none__ $DEBUGFS -R "blocks /long-link" $DEV 2>/dev/null |
		tr ' ' '\n' | grep '[0-9]' | while read -r b; do echo $((b * bs)):$bs; done
}

nmount=0 nrefused=0
for FS in ext2-1k ext2-4k; do
	step "$FS: $RUNS images with $FLIPS flipped metadata bytes each"
	fs_mkfs
	fs_mount
	bs=$(stat -f -c %S $MNT)
	populate_flip_tree
	$SETFATTR -n user.flip -v "$(printf '%0300d' 3)" $MNT/a/small || fail "setfattr"
	sync
	(cd $MNT && find . -type d | sed 's/^\.//; s/^$/\//') > /tmp/dirs
	fs_umount
	fs_fsck
	meta_ranges > /tmp/ranges
	n=$(wc -l < /tmp/ranges)
	# At least: superblock, descriptors, 2 bitmaps, inode table, 6
	# directories, 3 indirect blocks, the xattr block, the symlink's.
	[ "$n" -ge 15 ] || { cat /tmp/ranges; fail "$FS: only $n metadata ranges found"; }
	echo "$FS: $n metadata ranges, $(awk -F: '{ s += $2 } END { print s }' /tmp/ranges) bytes"
	dd if=$DEV of=/tmp/pristine.img bs=1024 count=$FSSIZE_KB 2>/dev/null || fail "saving the image"
	seed=1
	while [ $seed -le $RUNS ]; do
		dd if=/tmp/pristine.img of=$DEV bs=1024 2>/dev/null || fail "restoring the image"
		/bin/fsbflip $DEV $seed $FLIPS $(cat /tmp/ranges) > /tmp/flips 2>&1 ||
			{ cat /tmp/flips; fail "fsbflip"; }
		if mount -t ext2 -o errors=remount-ro $DEV $MNT 2>/dev/null; then
			nmount=$((nmount + 1))
			walk_fs "$FS seed $seed"
			(echo new > $MNT/new && rm -f $MNT/new) 2>/dev/null
			umount $MNT || { cat /tmp/flips; fail "$FS seed $seed: umount failed"; }
		else
			nrefused=$((nrefused + 1))
			echo "$FS seed $seed: mount refused: $(dmesg | grep -i ext2 | tail -1 | sed 's/^\[[^]]*\] *//')"
		fi
		seed=$((seed + 1))
	done
done
echo "scenario ext2-byteflip: $nmount damaged images mounted and walked, $nrefused refused, no splat in the guest"
