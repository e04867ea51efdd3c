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
eio_setup

for FS in minix1 minix2 minix3; do
	step "$FS: metadata write error, then fsync on two open files"
	lose_metadata 20480
	eio_once fsync 3
	eio_once fsync 4
	eio_finish

	step "$FS: metadata write error, then syncfs on two open files"
	lose_metadata 20480
	eio_once syncfs 3
	eio_once syncfs 4
	eio_finish
done
eio_restore
