# SPDX-License-Identifier: GPL-2.0
# minix2 on the virtio disk: the standard workload (see lib.sh).
. /fsb/lib.sh
FS=minix2
DEV=/dev/vda
fs_workload
