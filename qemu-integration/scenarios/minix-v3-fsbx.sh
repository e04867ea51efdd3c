# SPDX-License-Identifier: GPL-2.0
# minix3 on the brd RAM disk: the data-integrity exerciser, 2 x 25000
# operations (see lib.sh fs_exercise).
. /fsb/lib.sh
FS=minix3
DEV=/dev/ram0
FSX_SEED=3
fs_exercise
