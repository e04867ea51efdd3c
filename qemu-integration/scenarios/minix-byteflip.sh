# SPDX-License-Identifier: GPL-2.0
# Seeded random damage to the metadata of small populated minix images
# (V1, V2, V3): for each seed, a fresh copy of the image gets a few bits
# flipped in its metadata blocks (see mximg flip), is mounted, walked and
# read (at most 8 MiB of each file: lib.sh's walk_fs), and unmounted.  Failures of the mount or of reads are
# expected; only clean errors are allowed - a splat fails the run (the
# console log is scanned), and so do a hang and a failed umount.
. /fsb/lib.sh
DEV=/dev/ram0
FSSIZE_KB=2048
# flip_runs= on the kernel command line: seeds per version (run.sh sets
# it: FLIP_RUNS, or the tier's default; make soak runs SOAK_FLIPS).
RUNS=$(karg flip_runs 10)
FLIPS=${FLIP_BYTES:-6}

nmount=0 nrefused=0
for FS in minix1 minix2 minix3; do
	step "$FS: $RUNS images with $FLIPS flipped metadata bytes each"
	fs_mkfs
	fs_mount
	populate_flip_tree
	sync
	fs_umount
	fs_fsck
	dd if=$DEV of=/tmp/pristine.img bs=1024 count=$FSSIZE_KB 2>/dev/null || fail "saving the image"
	seed=1
	while [ $seed -le $RUNS ]; do
		dd if=/tmp/pristine.img of=$DEV bs=1024 2>/dev/null || fail "restoring the image"
		/bin/mximg flip $DEV $seed $FLIPS > /tmp/flips 2>/dev/null || fail "mximg flip"
		if mount -t minix $DEV $MNT 2>/dev/null; then
			nmount=$((nmount + 1))
			walk_fs "$FS seed $seed"
			umount $MNT || { cat /tmp/flips; fail "$FS seed $seed: umount failed"; }
		else
			nrefused=$((nrefused + 1))
			echo "$FS seed $seed: mount refused: $(dmesg | grep -i minix | tail -1 | sed 's/^\[[^]]*\] *//')"
		fi
		seed=$((seed + 1))
	done
done
echo "scenario minix-byteflip: $nmount damaged images mounted and walked, $nrefused refused, no splat in the guest"
