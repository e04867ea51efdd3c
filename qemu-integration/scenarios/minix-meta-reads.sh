# SPDX-License-Identifier: GPL-2.0
# Metadata once read is not read from the device again while it is in the
# page cache, counted at the device (/sys/block/vda/stat).  For v1, v2 and
# v3: a tree of 400 small files in 10 directories and a 6 MiB file (with
# indirect blocks), then, on a fresh mount:
# - a walk of the tree (ls -lR, stat of everything) reads the device;
#   with the inodes and dentries dropped (drop_caches 2: the page cache,
#   and with it the metadata blocks, stays), a second walk must read
#   nothing: the inode-table blocks are still cached;
# - with the whole cache dropped, a sequential read of the 6 MiB file
#   must read about the file's size: each indirect block once (fsblock
#   read a 1 KiB metadata block from the device again each time its state
#   was freed, 3.3 times the file's size in all).
. /fsb/lib.sh
DEV=/dev/vda
FSSIZE_KB=16384
BIG_KB=6144

# The sectors read from the device so far.
sectors_read() { awk '{ print $3 }' /sys/block/${DEV#/dev/}/stat; }

walk() {
	ls -laR $MNT > /dev/null || fail "$FS: ls -laR"
	find $MNT -exec stat {} + > /dev/null || fail "$FS: stat of the tree"
}

for FS in minix1 minix2 minix3; do
	step "$FS: metadata reads at the device"
	fs_mkfs
	fs_mount
	d=0
	while [ $d -lt 10 ]; do
		mkdir $MNT/d$d || fail "mkdir d$d"
		i=0
		while [ $i -lt 40 ]; do
			echo "$d $i" > $MNT/d$d/f$i
			i=$((i + 1))
		done
		d=$((d + 1))
	done
	head -c $((BIG_KB * 1024)) /dev/urandom > $MNT/big || fail "writing big"
	sum=$(md5sum < $MNT/big)
	fs_umount
	mount -t minix -o noatime $DEV $MNT || fail "mount $FS"

	r0=$(sectors_read)
	walk
	r1=$(sectors_read)
	echo 2 > /proc/sys/vm/drop_caches
	walk
	r2=$(sectors_read)
	echo "$FS: first walk read $((r1 - r0)) sectors, second walk (inodes and dentries dropped) $((r2 - r1))"
	[ $((r1 - r0)) -gt 0 ] || fail "$FS: the first walk read nothing: the count is not working"
	[ $((r2 - r1)) -eq 0 ] || fail "$FS: the second walk read $((r2 - r1)) sectors: cached metadata was read again"

	echo 3 > /proc/sys/vm/drop_caches
	r3=$(sectors_read)
	[ "$(md5sum < $MNT/big)" = "$sum" ] || fail "$FS: big reads back wrong"
	r4=$(sectors_read)
	kb=$(((r4 - r3) / 2))
	echo "$FS: a cold read of the $BIG_KB KiB file read $kb KiB"
	# The file, its indirect blocks (under 30 KiB here), its inode block,
	# and some slack.
	[ $kb -le $((BIG_KB + 128)) ] ||
		fail "$FS: reading a $BIG_KB KiB file read $kb KiB from the device"
	fs_umount
	fs_fsck
done
