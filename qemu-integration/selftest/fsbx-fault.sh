# SPDX-License-Identifier: GPL-2.0
# Harness self-test: fsbx is told to flip a byte of its model (-F) and must
# report the mismatch, so this scenario must FAIL.
. /fsb/lib.sh
FS=minix2
DEV=/dev/ram0
FSSIZE_KB=8192
fs_mkfs
fs_mount
/bin/fsbx -s 7 -n 3000 -F 1500 -S 262144 -L 8192 $MNT/fsbx.fault ||
	fail "fsbx reported the injected fault (exit $?)"
fs_umount
echo "fsbx did not notice the injected fault"
