# SPDX-License-Identifier: GPL-2.0
# ext2-4k on the brd disk: the standard workload (see lib.sh).
. /fsb/lib.sh
FS=ext2-4k
DEV=/dev/ram0
fs_workload
