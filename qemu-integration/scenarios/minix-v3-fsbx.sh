# SPDX-License-Identifier: GPL-2.0
# minix3 on the brd RAM disk: the data-integrity exerciser, two processes at
# once, 4 x fsbx_ops operations in all (see lib.sh fs_exercise).
. /fsb/lib.sh
FS=minix3
DEV=/dev/ram0
FSX_SEED=21
fs_exercise
