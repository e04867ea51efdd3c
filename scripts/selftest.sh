#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make harness-selftest: the integration harness must fail on a damaged
# filesystem and on a data mismatch.  Boots the integration kernel with the
# scenarios of qemu-integration/selftest/ (one damages a minix image
# before fsck, one tells fsbx to corrupt its model) and passes only if the
# run fails and names both.
. "$(dirname "$0")/common.sh"

out=$(SCENARIO_DIR=$REPO/qemu-integration/selftest LOGS=$LOGS/selftest \
	bash "$REPO/qemu-integration/run.sh" 2>&1) && rc=0 || rc=$?
echo "$out" | tail -25
if [ $rc -ne 0 ] && echo "$out" | grep -q 'FAIL fsck-damage' &&
   echo "$out" | grep -q 'FAIL fsbx-fault'; then
	echo "harness-selftest: the damaged image and the injected fsbx fault failed the run, as they must"
else
	echo "harness-selftest: FAILED: a planted fault was not caught"
	exit 1
fi
