# SPDX-License-Identifier: GPL-2.0
# minix1 on the brd disk: the standard workload (see lib.sh).
. /fsb/lib.sh
FS=minix1
DEV=/dev/ram0
fs_workload
