# SPDX-License-Identifier: GPL-2.0
# ext2-1k on the virtio disk: the standard workload (see lib.sh).
. /fsb/lib.sh
FS=ext2-1k
DEV=/dev/vda
fs_workload
