# SPDX-License-Identifier: GPL-2.0
# ext2-4k on the virtio disk: the standard workload (see lib.sh).
. /fsb/lib.sh
FS=ext2-4k
DEV=/dev/vda
fs_workload
