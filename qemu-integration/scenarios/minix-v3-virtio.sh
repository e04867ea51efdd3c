# SPDX-License-Identifier: GPL-2.0
# minix3 on the virtio disk: the standard workload (see lib.sh).
. /fsb/lib.sh
FS=minix3
DEV=/dev/vda
fs_workload
