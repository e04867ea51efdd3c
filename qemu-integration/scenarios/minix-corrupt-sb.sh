# SPDX-License-Identifier: GPL-2.0
# Hand-made corrupt minix superblocks (V1, V2, V3): each must fail the
# mount with a kernel message.  Then, on images that mount: a file whose
# zone lies beyond the device, a file whose indirect pointer names a
# bitmap block, a directory entry naming an inode that does not exist, a
# root directory whose block lies beyond the device and a directory whose
# second page does: reading them (read, readdir, lookup) must return an
# error to the caller.
. /fsb/lib.sh
# The small virtio disk (4 MiB, run.sh's second drive): a field that
# points beyond the device makes stock minix read up to the device's end
# first, which on the 32 MiB RAM disks took a minute per image.
DEV=/dev/vdb
FSSIZE_KB=4096
devkb=$(($(blockdev --getsize64 $DEV) / 1024))

# expect_error WHAT STOCK CMD...: CMD must fail; its error is printed.  A
# non-empty STOCK says what stock minix does instead, where it lets CMD
# succeed.
expect_error() {
	what=$1 stock=$2
	shift 2
	if "$@" > /dev/null 2> /tmp/err.out; then
		[ "$FSB_KERNEL" = stock ] && [ -n "$stock" ] || fail "$FS: $what: '$*' succeeded"
		echo "$FS: $what: $stock"
	else
		echo "$FS: $what: $(cat /tmp/err.out)"
	fi
}

sb_case() {	# field value what [why stock accepts it]
	fs_mkfs
	/bin/mximg set $DEV "$1" "$2" || fail "mximg set $1 $2"
	expect_refused "$FS: $3 ($1=$2)" "$4"
}

for FS in minix1 minix2 minix3; do
	step "$FS: corrupt superblocks"
	case $FS in
	minix1) zones=nzones ;;
	*) zones=zones ;;
	esac
	sb_case magic 0x1234 "bad magic"
	sb_case ninodes 0 "zero inodes"
	sb_case $zones 3 "fewer zones than the metadata needs"
	sb_case imap_blocks 40000 "bitmap blocks beyond the device"
	sb_case zmap_blocks 40000 "bitmap blocks beyond the device"
	sb_case firstdatazone 60000 "first data zone past the last zone"
	[ $FS = minix3 ] && sb_case blocksize 512 "block size below 1024"
	[ $FS = minix3 ] && sb_case blocksize 3000 "block size not a power of two"
	[ $FS = minix3 ] && sb_case log_zone_size 1 "zones larger than blocks"

	# A consistent image that is larger than the device it is on: made
	# in a file twice the device's size, its first part copied over.
	step "$FS: zone count beyond the device"
	rm -f /tmp/big.img
	truncate -s $((devkb * 2))K /tmp/big.img
	case $FS in
	minix1) $MKFS_MINIX -1 /tmp/big.img $((devkb * 2 > 65535 ? 65535 : devkb * 2)) ;;
	minix2) $MKFS_MINIX -2 /tmp/big.img ;;
	minix3) $MKFS_MINIX -3 /tmp/big.img ;;
	esac > /tmp/mkfs.out 2>&1 || { cat /tmp/mkfs.out; fail "mkfs $FS on /tmp/big.img"; }
	dd if=/tmp/big.img of=$DEV bs=1M count=$((devkb / 1024)) 2>/dev/null || fail "copying the image"
	rm -f /tmp/big.img
	/bin/mximg info $DEV | grep -E '^(nzones|zones) ' | tr '\n' ' '
	echo "on a device of $devkb KiB"
	expect_refused "$FS: zones beyond the end of the device" \
		"it does not compare the zone count with the device size"

	step "$FS: corrupt inode and directory blocks, read after the mount"
	fs_mkfs
	fs_mount
	head -c 5000 /dev/urandom > $MNT/f || fail "writing f"
	head -c 20000 /dev/urandom > $MNT/h || fail "writing h"
	fs_umount
	# f is inode 2, the first after the root; its first zone is now block 65000,
	# beyond the device (4 MiB) and beyond the last zone.
	/bin/mximg zone $DEV 2 0 65000 || fail "mximg zone"
	fs_mount
	expect_error "zone beyond the device" "" cat $MNT/f
	fs_umount
	# h (inode 3) has an indirect block; its pointer now names block 3,
	# a bitmap block.  Reading h must fail; removing it must not free or
	# overwrite the bitmap, and the filesystem must stay usable.
	/bin/mximg zone $DEV 3 7 3 || fail "mximg zone"
	fs_mount
	expect_error "indirect pointer to a bitmap block" \
		"stock minix reads the bitmap as an indirect block" cat $MNT/h
	rm $MNT/h || fail "$FS: removing h failed"
	if head -c 30000 /dev/urandom > /tmp/probe && cp /tmp/probe $MNT/probe 2> /tmp/cp.err &&
	   sync && echo 3 > /proc/sys/vm/drop_caches && cmp /tmp/probe $MNT/probe; then
		echo "$FS: h removed; a new 30000-byte file reads back intact"
	elif [ "$FSB_KERNEL" = stock ]; then
		echo "$FS: h removed; stock minix freed zones named by the bitmap block it took for an indirect block, and a new file then fails: $(cat /tmp/cp.err)"
	else
		fail "$FS: the filesystem is not usable after removing h"
	fi
	fs_umount
	# The entry after "." and ".." names inode 60000, which does not exist.
	fs_mkfs
	fs_mount
	echo x > $MNT/g || fail "writing g"
	fs_umount
	/bin/mximg dirent $DEV 2 60000 || fail "mximg dirent"
	fs_mount
	expect_error "entry naming a missing inode" "" stat $MNT/g
	fs_umount
	# The root directory's first block lies beyond the device.
	/bin/mximg zone $DEV 1 0 65000 || fail "mximg zone"
	fs_mount
	expect_error "root directory block beyond the device" \
		"stock minix lists it as empty (minix_readdir skips blocks it cannot read)" \
		/bin/fsbls $MNT
	# A lookup there must report the error too, not answer ENOENT.
	if stat $MNT/g > /dev/null 2> /tmp/err.out; then
		fail "$FS: lookup in an unreadable directory succeeded"
	elif grep -q 'No such file' /tmp/err.out; then
		[ "$FSB_KERNEL" = stock ] ||
			fail "$FS: lookup in an unreadable directory answered ENOENT"
		echo "$FS: lookup in an unreadable directory: stock minix answers ENOENT (minix_find_entry skips blocks it cannot read)"
	else
		echo "$FS: lookup in an unreadable directory: $(cat /tmp/err.out)"
	fi
	fs_umount
	# A directory of more than one page whose second page has a block
	# beyond the device: getdents() drops the error of a call that has
	# returned entries, so readdir must stop before that page and report
	# it on the next call.
	fs_mkfs
	fs_mount
	mkdir $MNT/d || fail "mkdir d"
	i=0
	while [ $i -lt 300 ]; do
		: > $MNT/d/f$i || fail "creating d/f$i"
		i=$((i + 1))
	done
	echo "$FS: directory d: $(stat -c %s $MNT/d) bytes"
	fs_umount
	/bin/mximg zone $DEV 2 4 65000 || fail "mximg zone"
	fs_mount
	expect_error "directory block beyond the device, in the second page" \
		"stock minix lists the directory without that page" /bin/fsbls $MNT/d
	fs_umount
done
echo "scenario minix-corrupt-sb: all checks passed"
