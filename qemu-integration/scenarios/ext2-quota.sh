# SPDX-License-Identifier: GPL-2.0
# Disk quotas on ext2 through Debian's quota tools (quotacheck, quotaon,
# quotaoff, setquota, repquota, quota), on ext2 with 1 KiB and with 4 KiB
# blocks.  ext2 keeps its quota in two ordinary files (aquota.user,
# aquota.group) that the kernel reads and writes through the block device
# (ext2_quota_read/ext2_quota_write), beside the page cache the tools use.
# For each block size:
# 1. Mounted with usrquota,grpquota, quotacheck -cug creates the files and
#    quotaon turns both quotas on; setquota gives uid 1000 a hard limit of
#    400 KiB and 30 inodes.
# 2. uid 1000 (setpriv) writes a file until the write fails with "Disk
#    quota exceeded": its usage is then at most the limit and within three
#    blocks of it.  It creates empty files in a directory of root's (whose
#    blocks are root's) until touch fails the same way: exactly as many as
#    the inode limit leaves.
# 3. repquota (user and group) and quota (run as uid 1000) show what the
#    files on the disk add up to (find -user/-group, the blocks stat
#    reports; ext2 charges exactly the blocks it adds to i_blocks) and
#    the limits that were set.
# 4. quotaoff, unmount, e2fsck -fn clean, mount, quotaon: the same usage.
# 5. quotaon must read what quotacheck just wrote (the "invalidate_bdev on
#    quotaon" case): with the quota off, uid 1000 deletes and writes files,
#    so the quota files are stale (repquota, reading them, still shows what
#    the kernel wrote at quotaoff); quotacheck -ug rewrites them (new files
#    written through the page cache and renamed over the old ones, often
#    on blocks the old ones had: the scenario prints how many) and
#    repquota, reading the files, shows the new usage; quotaon then reads
#    them through the block device, whose cache held the old files' blocks
#    since the last quotaon, and repquota must show the new usage and the
#    limits, and the limit must still be enforced.
# 6. quotaoff, unmount, e2fsck -fn clean.
. /fsb/lib.sh
DEV=/dev/vda
FSSIZE_KB=16384
QUOTACHECK=/sbin/quotacheck
QUOTAON=/sbin/quotaon
QUOTAOFF=/sbin/quotaoff
SETQUOTA=/sbin/setquota
REPQUOTA=/sbin/repquota
QUOTA=/sbin/quota
SETPRIV=/sbin/setpriv
DEBUGFS=/sbin/debugfs
need_tools $QUOTACHECK $QUOTAON $QUOTAOFF $SETQUOTA $REPQUOTA $QUOTA $SETPRIV $DEBUGFS
ID=1000
BHARD=400	# KiB
IHARD=30

as_user() { $SETPRIV --reuid=$ID --regid=$ID --clear-groups "$@"; }

# The blocks of the quota files, as debugfs reads them from $DEV.
quota_file_blocks() {
	for f in aquota.user aquota.group; do
		DEBUGFS_PAGER=__none__ $DEBUGFS -R "blocks /$f" $DEV 2>/dev/null
	done | tr -s ' \n' '  '
}

# run WHAT COMMAND...: COMMAND must succeed; its output is shown if not.
run() {
	what=$1
	shift
	"$@" > /tmp/run.out 2>&1 || { cat /tmp/run.out; fail "$FS: $what: '$*' failed"; }
}

mount_quota() {
	mount -t ext2 -o usrquota,grpquota $DEV $MNT || fail "mount $FS with usrquota,grpquota"
	grep " $MNT " /proc/mounts | grep -q 'usrquota.*grpquota' ||
		fail "$FS: /proc/mounts does not show usrquota,grpquota: $(grep " $MNT " /proc/mounts)"
}

# quota_state on|off: what quotaon -p says of both quotas.
quota_state() {
	$QUOTAON -p $MNT > /tmp/qstate 2>&1
	for t in user group; do
		grep -q "^$t quota on $MNT ($DEV) is $1" /tmp/qstate ||
			{ cat /tmp/qstate; fail "$FS: $t quota is not $1"; }
	done
}

# What the disk holds of user (-user) or group (-group) $ID: "KiB inodes".
on_disk() {
	find $MNT -xdev $1 $ID -exec stat -c %b {} + |
		awk '{ b += $1; n++ } END { print b / 2, n + 0 }'
}

# What repquota says of user (-u) or group (-g) $ID:
# "KiB block-hard-limit inodes inode-hard-limit".
rep() {
	$REPQUOTA $1 -n -O csv $MNT > /tmp/rep.out 2>&1 || { cat /tmp/rep.out; fail "$FS: repquota $1"; }
	awk -F, -v id="#$ID" '$1 == id { print $4, $6, $8, $10 }' /tmp/rep.out
}

# agree WHEN [INODES]: repquota (user and group) and quota must show what
# the disk holds, uid $ID the limits set, the group none; with INODES,
# the inode count must be that too.
agree() {
	read -r kib ino <<EOF
$(on_disk -user)
EOF
	[ "$(on_disk -group)" = "$kib $ino" ] ||
		fail "$FS: group $ID owns $(on_disk -group), user $ID $kib $ino: the test is broken"
	[ -z "${2:-}" ] || [ "$ino" -eq "$2" ] || fail "$FS: uid $ID owns $ino inodes, not $2 ($1)"
	want="$kib $BHARD $ino $IHARD"
	got=$(rep -u)
	[ "$got" = "$want" ] || { cat /tmp/rep.out
		fail "$FS: repquota -u says '$got' (KiB, limit, inodes, limit) of uid $ID, the disk '$want' ($1)"; }
	got=$(rep -g)
	[ "$got" = "$kib 0 $ino 0" ] || { cat /tmp/rep.out
		fail "$FS: repquota -g says '$got' of gid $ID, the disk '$kib 0 $ino 0' ($1)"; }
	if [ "${3:-}" != quota-off ]; then
		as_user $QUOTA -w -p -v > /tmp/quota.out 2>&1
		got=$(awk -v d=$DEV '$1 == d { gsub(/\*/, ""); print $2, $4, $6, $8 }' /tmp/quota.out)
		[ "$got" = "$want" ] || { cat /tmp/quota.out
			fail "$FS: quota (as uid $ID) says '$got', the disk '$want' ($1)"; }
	fi
	echo "$FS: repquota and quota agree with the disk: uid $ID uses $kib KiB of $BHARD, $ino inodes of $IHARD ($1)"
}

# fill_blocks FILE: uid $ID writes FILE until the quota stops it.
fill_blocks() {
	as_user dd if=/dev/zero of="$1" bs=1024 count=$((BHARD * 2)) 2> /tmp/dd.err
	rc=$?
	[ $rc -ne 0 ] || fail "$FS: uid $ID wrote $((BHARD * 2)) KiB past a $BHARD KiB hard limit"
	grep -q 'Disk quota exceeded' /tmp/dd.err ||
		{ cat /tmp/dd.err; fail "$FS: writing past the hard limit failed, but not with EDQUOT"; }
	read -r kib ino <<EOF
$(on_disk -user)
EOF
	echo "$FS: the write stopped with EDQUOT after $(stat -c %s "$1") bytes; uid $ID owns $kib KiB"
	[ "$kib" -le $BHARD ] || fail "$FS: uid $ID owns $kib KiB, over the $BHARD KiB hard limit"
	[ "$kib" -gt $((BHARD - 3 * bs / 1024)) ] ||
		fail "$FS: the write stopped at $kib KiB, more than 3 blocks short of the $BHARD KiB limit"
}

for FS in ext2-1k ext2-4k; do
	step "$FS: mkfs, mount with usrquota,grpquota, quotacheck -cug, quotaon, setquota"
	fs_mkfs
	mount_quota
	bs=$(stat -f -c %S $MNT)
	mkdir $MNT/u $MNT/pub && chown $ID:$ID $MNT/u && chmod 1777 $MNT/pub ||
		fail "$FS: making the directories"
	run "creating the quota files" $QUOTACHECK -cug $MNT
	for f in aquota.user aquota.group; do
		[ -s $MNT/$f ] || fail "$FS: quotacheck -c did not create $f"
	done
	$QUOTAON $MNT > /tmp/qon.out 2>&1 ||
		{ cat /tmp/qon.out; fail "$FS: quotaon (are CONFIG_QUOTA and CONFIG_QFMT_V2 set?)"; }
	quota_state on
	run "setting uid $ID's limits" $SETQUOTA -u $ID 0 $BHARD 0 $IHARD $MNT

	step "$FS: uid $ID writes until EDQUOT, then creates files until EDQUOT"
	fill_blocks $MNT/u/big
	read -r kib ino0 <<EOF
$(on_disk -user)
EOF
	n=0
	while as_user touch $MNT/pub/n$n 2> /tmp/touch.err; do
		n=$((n + 1))
		[ $n -le $IHARD ] || fail "$FS: uid $ID created $n files past an inode limit of $IHARD"
	done
	grep -q 'Disk quota exceeded' /tmp/touch.err ||
		{ cat /tmp/touch.err; fail "$FS: creating a file failed, but not with EDQUOT"; }
	echo "$FS: uid $ID created $n empty files, then EDQUOT"
	[ $n -eq $((IHARD - ino0)) ] ||
		fail "$FS: uid $ID created $n files with $ino0 inodes in use and a limit of $IHARD, not $((IHARD - ino0))"
	agree "at the limits" $IHARD
	read -r kib1 ino1 <<EOF
$(on_disk -user)
EOF

	step "$FS: quotaoff, unmount, e2fsck, mount, quotaon"
	run quotaoff $QUOTAOFF $MNT
	quota_state off
	fs_umount
	fs_fsck
	mount_quota
	run quotaon $QUOTAON $MNT
	quota_state on
	agree "after the remount" $IHARD

	step "$FS: quotacheck rewrites the files with the quota off, quotaon reads them"
	run quotaoff $QUOTAOFF $MNT
	quota_state off
	rm $MNT/u/big $MNT/pub/n* || fail "$FS: removing uid $ID's files"
	as_user dd if=/dev/zero of=$MNT/u/new bs=1024 count=$((BHARD / 4)) 2> /tmp/dd.err ||
		{ cat /tmp/dd.err; fail "$FS: uid $ID writing with the quota off"; }
	for i in 1 2 3 4 5; do
		as_user touch $MNT/u/e$i || fail "$FS: uid $ID creating u/e$i"
	done
	read -r kib2 ino2 <<EOF
$(on_disk -user)
EOF
	[ "$kib2 $ino2" != "$kib1 $ino1" ] || fail "$FS: the usage did not change: the check would show nothing"
	# The files still hold the usage of before: repquota reads them.
	got=$(rep -u)
	[ "$got" = "$kib1 $BHARD $ino1 $IHARD" ] ||
		{ cat /tmp/rep.out; fail "$FS: with the quota off repquota says '$got', not the '$kib1 $BHARD $ino1 $IHARD' the files held"; }
	old_blocks=$(quota_file_blocks)
	run "quotacheck of the changed filesystem" $QUOTACHECK -ug $MNT
	# quotacheck writes new files and renames them over the old ones: where
	# a new file has a block of an old one, the block device's cache may
	# still hold the old contents, which quotaon must not read.
	reused=0
	for b in $(quota_file_blocks); do
		case " $old_blocks " in *" $b "*) reused=$((reused + 1)) ;; esac
	done
	echo "$FS: quotacheck's new files have $reused blocks of the old ones (read by the kernel at the last quotaon)"
	agree "quotacheck's files, read by repquota with the quota off" $ino2 quota-off
	run quotaon $QUOTAON $MNT
	quota_state on
	agree "after quotaon of quotacheck's files" $ino2
	rm $MNT/u/new || fail "$FS: rm u/new"
	fill_blocks $MNT/u/big2
	agree "the limit enforced after quotacheck and quotaon"

	step "$FS: quotaoff, unmount, e2fsck"
	run quotaoff $QUOTAOFF $MNT
	quota_state off
	fs_umount
	fs_fsck
done
echo "ext2 quotas: all checks passed"
