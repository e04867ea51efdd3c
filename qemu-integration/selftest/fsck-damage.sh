# SPDX-License-Identifier: GPL-2.0
# Harness self-test, not a product scenario: damage a minix image behind
# the filesystem's back (zero the inode bitmap) and run the standard fsck
# step.  The harness must report this scenario as FAILED; `make
# harness-selftest` checks that it does.
. /fsb/lib.sh
FS=minix2
DEV=/dev/ram0
make_pool
fs_mkfs
fs_mount
echo data > $MNT/a
mkdir $MNT/b
fs_umount
# Block 2 of a minix image (1 KiB blocks) is the first inode-bitmap block.
dd if=/dev/zero of=$DEV bs=1024 seek=2 count=1 conv=notrunc 2>/dev/null
fs_fsck
