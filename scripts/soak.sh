#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make soak: the long runs, not part of make test.  fsbx at SOAK_OPS
# operations per filesystem configuration (default 1000000: four runs of
# SOAK_OPS/4, two at once, the second pair with a drop_caches loop) and
# minix-byteflip and ext2-byteflip at SOAK_FLIPS seeds per minix version
# and per ext2 block size (default 200), on
# the debug integration kernel and on the same series built without the
# debug set (the "fast" kernel: other timings, about ten times the
# operations per minute).  The pass rules are make test's: fsck clean
# after every pair, files equal to the models after remount, no splat.
# A progress line a minute; "N passed, N failed" at the end.
. "$(dirname "$0")/common.sh"

export TIER=soak
export KERNELS=${KERNELS:-integration fast}
say "make soak: ${SOAK_OPS:-1000000} fsbx operations per filesystem, ${SOAK_FLIPS:-200} flip seeds per minix version and ext2 block size, kernels: $KERNELS"
exec bash "$REPO/qemu-integration/run.sh"
