# SPDX-License-Identifier: GPL-2.0
# ext2's extended attributes and POSIX ACLs through Debian's attr and acl
# tools (setfattr/getfattr, setfacl/getfacl), on ext2 with 1 KiB and with
# 4 KiB blocks.  The image has 128-byte inodes (mke2fs -I 128; Debian's
# mke2fs.conf asks for 256): every attribute then lives in an xattr block,
# a metadata block of its own that ext2 shares between inodes with the
# same attributes (found through mbcache, reference-counted in the
# block's header).  For each block size:
# 1. user.* and trusted.* attributes on one file, values of 12 to 380
#    bytes: set, read back, listed (the names exactly), a value replaced,
#    one removed (reading it then says "No such attribute"); a value
#    larger than the block and one that does not fit beside the others
#    are refused, and the file keeps what it had.  Another user reads
#    user.* but does not see trusted.*, and may set neither.
# 2. POSIX ACLs: named user and group entries on a file (getfacl prints
#    what was set, the mode's group bits are the mask, and the kernel
#    grants and refuses access by them); a default ACL on a directory is
#    inherited by a new file (masked by its creation mode) and by a new
#    directory (as its access and its default ACL).
# 3. 50 files given the same three attributes share one xattr block:
#    statfs loses exactly one block for the 50, and after unmounting,
#    debugfs shows the same "File ACL:" block for all of them.
# 4. e2fsck -fn is clean (it checks each xattr block's reference count);
#    after a remount getfattr -d -m - and getfacl -R print the same as
#    before the unmount, and the values read back one by one.
# 5. Removing the attributes from all 50 files frees the shared block:
#    statfs is back where it was, debugfs shows "File ACL: 0" for each and
#    the block not in use, and e2fsck -fn is clean again.
. /fsb/lib.sh
DEV=/dev/vda
FSSIZE_KB=8192
MKE2FS_OPTS="-I 128"
SETFATTR=/sbin/setfattr
GETFATTR=/sbin/getfattr
SETFACL=/sbin/setfacl
GETFACL=/sbin/getfacl
DEBUGFS=/sbin/debugfs
SETPRIV=/sbin/setpriv
need_tools $SETFATTR $GETFATTR $SETFACL $GETFACL $DEBUGFS $SETPRIV
export DEBUGFS_PAGER=__none__
NSHARE=50

# The values: plain text (setfattr reads a value starting with 0x or 0s
# as hex or base64).
SMALL=short-value
BIG=$(printf 'big-value-%03d.' $(seq 1 27))		# 378 bytes
BIG2=$(printf 'other-big-%03d:' $(seq 1 20))		# 280 bytes
TVAL=$(printf 'trusted-%02d;' $(seq 1 12))		# 132 bytes

# Run "$@" as user $1, group $2, no supplementary groups.
as_user() {
	u=$1 g=$2
	shift 2
	$SETPRIV --reuid="$u" --regid="$g" --clear-groups "$@"
}

# The attribute names of $1 (under $MNT) as root sees them, sorted, on one line.
names_of() {
	(cd $MNT && $GETFATTR -m - "$1") | sed '/^#/d; /^$/d' | sort | tr '\n' ' ' | sed 's/ $//'
}

# expect_value FILE NAME VALUE
expect_value() {
	got=$(cd $MNT && $GETFATTR --only-values -n "$2" "$1") ||
		fail "$FS: getfattr -n $2 $1 failed"
	[ "$got" = "$3" ] || fail "$FS: $1: $2 is '$got', not '$3'"
}

# expect_names FILE "NAMES"
expect_names() {
	got=$(names_of "$1")
	[ "$got" = "$2" ] || fail "$FS: $1 lists the attributes '$got', not '$2'"
}

# expect_error WHAT MESSAGE... : the command run before failed (exit in
# $rc), with one of the messages in /tmp/err.
expect_error() {
	what=$1
	shift
	[ $rc -ne 0 ] || fail "$FS: $what succeeded"
	for m in "$@"; do
		grep -q "$m" /tmp/err && { echo "$FS: $what: refused ($m)"; return 0; }
	done
	cat /tmp/err
	fail "$FS: $what failed, but not with: $*"
}

# expect_acl FILE: getfacl -n -E --omit-header FILE must print /tmp/acl.want.
expect_acl() {
	(cd $MNT && $GETFACL -n -E --omit-header "$1") > /tmp/acl.got || fail "$FS: getfacl $1"
	if ! diff /tmp/acl.want /tmp/acl.got; then
		fail "$FS: the ACL of $1 differs from what was set (above: - wanted, + got)"
	fi
}

# The "File ACL:" block of each sharer, as debugfs reads the unmounted
# image: one "COUNT BLOCK" line per distinct block.
sharer_blocks() {
	: > /tmp/dbg.cmd
	i=1
	while [ $i -le $NSHARE ]; do
		echo "stat /share/f$i" >> /tmp/dbg.cmd
		i=$((i + 1))
	done
	$DEBUGFS -f /tmp/dbg.cmd $DEV 2> /tmp/dbg.err > /tmp/dbg.out ||
		{ cat /tmp/dbg.err; fail "$FS: debugfs stat of the sharers"; }
	n=$(grep -c 'File ACL:' /tmp/dbg.out)
	[ "$n" -eq $NSHARE ] || { cat /tmp/dbg.err; fail "$FS: debugfs printed $n 'File ACL:' lines for $NSHARE files"; }
	sed -n 's/.*File ACL: *\([0-9]*\).*/\1/p' /tmp/dbg.out | sort | uniq -c | awk '{ print $1, $2 }'
}

# Every attribute and ACL on the filesystem, one dump each.
dump_all() {
	(cd $MNT && $GETFATTR -R -d -m - -e hex .) > /tmp/xattr.$1 || fail "$FS: getfattr -R ($1)"
	(cd $MNT && $GETFACL -R -n .) > /tmp/facl.$1 2>/dev/null || fail "$FS: getfacl -R ($1)"
}

mount_xattr() {
	mount -t ext2 -o user_xattr,acl $DEV $MNT || fail "mount $FS with user_xattr,acl"
}

check_values() {
	expect_names one "trusted.t user.big"
	expect_value one user.big "$BIG2"
	expect_value one trusted.t "$TVAL"
	expect_names two "user.u2"
	expect_value two user.u2 "$SMALL"
	expect_names share/f1 "trusted.t user.big user.small"
	expect_value share/f1 user.big "$BIG"
	expect_value share/f$NSHARE user.small "$SMALL"
	expect_value share/f$((NSHARE / 2)) trusted.t "$TVAL"
}

for FS in ext2-1k ext2-4k; do
	step "$FS: mkfs (128-byte inodes) and mount with user_xattr,acl"
	fs_mkfs
	isz=$($DEBUGFS -R stats $DEV 2>/dev/null | sed -n 's/^Inode size:[[:space:]]*//p')
	[ "$isz" = 128 ] || fail "$FS: mke2fs made inodes of '$isz' bytes, not 128"
	$DEBUGFS -R stats $DEV 2>/dev/null | grep -q '^Filesystem features:.*ext_attr' ||
		fail "$FS: mke2fs did not set the ext_attr feature"
	mount_xattr
	bs=$(stat -f -c %S $MNT)

	step "$FS: user.* and trusted.* attributes: set, get, list, replace, remove"
	: > $MNT/one || fail "$FS: creating one"
	(cd $MNT && $SETFATTR -n user.small -v "$SMALL" one) 2> /tmp/err ||
		{ cat /tmp/err; fail "$FS: setfattr user.small (is CONFIG_EXT2_FS_XATTR set?)"; }
	(cd $MNT && $SETFATTR -n user.big -v "$BIG" one &&
		$SETFATTR -n trusted.t -v "$TVAL" one) || fail "$FS: setfattr on one"
	expect_names one "trusted.t user.big user.small"
	expect_value one user.small "$SMALL"
	expect_value one user.big "$BIG"
	expect_value one trusted.t "$TVAL"
	(cd $MNT && $SETFATTR -n user.big -v "$BIG2" one) || fail "$FS: replacing user.big"
	expect_value one user.big "$BIG2"
	(cd $MNT && $SETFATTR -x user.small one) || fail "$FS: removing user.small"
	expect_names one "trusted.t user.big"
	(cd $MNT && $GETFATTR -n user.small one) > /dev/null 2> /tmp/err
	rc=$?
	expect_error "reading the removed user.small" "No such attribute"
	(cd $MNT && $SETFATTR -x user.small one) 2> /tmp/err
	rc=$?
	expect_error "removing user.small twice" "No such attribute"
	# Larger than a block: refused before anything is looked at (stock
	# ext2 answers ERANGE).  Smaller, but not beside the other two: ENOSPC.
	huge=$(printf "%$((bs + 100))s" '' | tr ' ' h)
	(cd $MNT && $SETFATTR -n user.huge -v "$huge" one) 2> /tmp/err
	rc=$?
	expect_error "a $((bs + 100))-byte value on a $bs-byte block" \
		"Numerical result out of range" "No space left on device" "Argument list too long"
	fill=$(printf "%$((bs - 200))s" '' | tr ' ' f)
	(cd $MNT && $SETFATTR -n user.fill -v "$fill" one) 2> /tmp/err
	rc=$?
	expect_error "a $((bs - 200))-byte value beside 400 bytes of others" "No space left on device"
	expect_names one "trusted.t user.big"
	expect_value one user.big "$BIG2"
	expect_value one trusted.t "$TVAL"
	: > $MNT/two || fail "$FS: creating two"
	(cd $MNT && $SETFATTR -n trusted.t2 -v "$TVAL" two && $SETFATTR -n user.u2 -v "$SMALL" two &&
		$SETFATTR -x trusted.t2 two) || fail "$FS: set, set, remove on two"
	expect_names two "user.u2"
	# Another user: reads user.* (one is 0644), does not see trusted.*,
	# sets neither (user.* needs write access, trusted.* CAP_SYS_ADMIN).
	got=$(as_user 1000 1000 $GETFATTR --absolute-names -m - $MNT/one | sed '/^#/d; /^$/d' | sort | tr '\n' ' ')
	[ "$got" = "user.big " ] || fail "$FS: uid 1000 lists '$got' on one, not 'user.big' alone"
	got=$(as_user 1000 1000 $GETFATTR --absolute-names --only-values -n user.big $MNT/one)
	[ "$got" = "$BIG2" ] || fail "$FS: uid 1000 reads user.big of one as '$got'"
	as_user 1000 1000 $SETFATTR -n user.x -v y $MNT/one 2> /tmp/err
	rc=$?
	expect_error "uid 1000 setting user.x on root's 0644 file" "Permission denied"
	as_user 1000 1000 $SETFATTR -n trusted.x -v y $MNT/one 2> /tmp/err
	rc=$?
	expect_error "uid 1000 setting trusted.x" "Operation not permitted"
	echo "$FS: set, get, list, replace and remove of user.* and trusted.* as expected"

	step "$FS: POSIX ACLs on a file and a default ACL on a directory"
	: > $MNT/acl1 && chmod 600 $MNT/acl1 || fail "$FS: creating acl1"
	(cd $MNT && $SETFACL -m u:1000:rw-,g:1000:r-- acl1) 2> /tmp/err ||
		{ cat /tmp/err; fail "$FS: setfacl on acl1 (is CONFIG_EXT2_FS_POSIX_ACL set?)"; }
	printf 'user::rw-\nuser:1000:rw-\ngroup::---\ngroup:1000:r--\nmask::rw-\nother::---\n\n' > /tmp/acl.want
	expect_acl acl1
	[ "$(stat -c %a $MNT/acl1)" = 660 ] ||
		fail "$FS: acl1 has mode $(stat -c %a $MNT/acl1), not 660 (the group bits must be the mask)"
	as_user 1000 2000 sh -c "echo by-uid-1000 >> $MNT/acl1" 2> /tmp/err ||
		{ cat /tmp/err; fail "$FS: uid 1000 (user:1000:rw-) cannot write acl1"; }
	as_user 1002 1000 cat $MNT/acl1 > /tmp/acl1.read 2> /tmp/err ||
		{ cat /tmp/err; fail "$FS: gid 1000 (group:1000:r--) cannot read acl1"; }
	[ "$(cat /tmp/acl1.read)" = by-uid-1000 ] || fail "$FS: acl1 reads '$(cat /tmp/acl1.read)'"
	as_user 1002 1000 sh -c "echo x >> $MNT/acl1" 2> /tmp/err
	rc=$?
	expect_error "gid 1000 (group:1000:r--) writing acl1" "Permission denied"
	as_user 1003 2000 cat $MNT/acl1 > /dev/null 2> /tmp/err
	rc=$?
	expect_error "an other user (other::---) reading acl1" "Permission denied"
	mkdir $MNT/dacl && chmod 755 $MNT/dacl || fail "$FS: mkdir dacl"
	(cd $MNT && $SETFACL -d -m u:1000:rwx,g:1000:r-x dacl) || fail "$FS: setfacl -d on dacl"
	: > $MNT/dacl/new || fail "$FS: creating dacl/new"
	mkdir $MNT/dacl/sub || fail "$FS: mkdir dacl/sub"
	# new was created with mode 0666: the mask and other are cut to rw-
	# and r--.
	printf 'user::rw-\nuser:1000:rwx\ngroup::r-x\ngroup:1000:r-x\nmask::rw-\nother::r--\n\n' > /tmp/acl.want
	expect_acl dacl/new
	{ printf 'user::rwx\nuser:1000:rwx\ngroup::r-x\ngroup:1000:r-x\nmask::rwx\nother::r-x\n'
	  printf 'default:user::rwx\ndefault:user:1000:rwx\ndefault:group::r-x\n'
	  printf 'default:group:1000:r-x\ndefault:mask::rwx\ndefault:other::r-x\n\n'; } > /tmp/acl.want
	expect_acl dacl/sub
	as_user 1000 2000 sh -c "echo inherited >> $MNT/dacl/new" 2> /tmp/err ||
		{ cat /tmp/err; fail "$FS: uid 1000 cannot write dacl/new (its inherited user:1000 entry)"; }
	echo "$FS: ACLs set, inherited and enforced as expected"

	step "$FS: $NSHARE files with the same attributes share one xattr block"
	mkdir $MNT/share || fail "$FS: mkdir share"
	files=
	i=1
	while [ $i -le $NSHARE ]; do
		: > $MNT/share/f$i || fail "$FS: creating share/f$i"
		files="$files f$i"
		i=$((i + 1))
	done
	sync
	free0=$(stat -f -c %f $MNT)
	(cd $MNT/share && $SETFATTR -n user.big -v "$BIG" $files &&
		$SETFATTR -n trusted.t -v "$TVAL" $files &&
		$SETFATTR -n user.small -v "$SMALL" $files) || fail "$FS: setfattr on the sharers"
	sync
	free1=$(stat -f -c %f $MNT)
	echo "$FS: the attributes of $NSHARE files took $((free0 - free1)) blocks of $bs bytes"
	[ $((free0 - free1)) -eq 1 ] ||
		fail "$FS: $NSHARE files with the same attributes took $((free0 - free1)) blocks, not one shared block"
	check_values
	dump_all before
	grep -c '^# file:' /tmp/xattr.before | sed "s/^/$FS: files with attributes: /"

	step "$FS: unmount, debugfs, e2fsck, remount, compare"
	fs_umount
	sharer_blocks > /tmp/blocks
	cat /tmp/blocks | sed "s/^/$FS: sharers per File ACL block: /"
	[ "$(wc -l < /tmp/blocks)" -eq 1 ] || fail "$FS: the sharers have more than one xattr block"
	read -r cnt blk < /tmp/blocks
	[ "$cnt" -eq $NSHARE ] && [ "$blk" -gt 0 ] ||
		fail "$FS: $cnt of $NSHARE files in xattr block '$blk'"
	fs_fsck
	mount_xattr
	dump_all after
	diff /tmp/xattr.before /tmp/xattr.after ||
		fail "$FS: getfattr -R -d -m - differs after the remount (above: - before, + after)"
	diff /tmp/facl.before /tmp/facl.after ||
		fail "$FS: getfacl -R differs after the remount (above: - before, + after)"
	check_values
	printf 'user::rw-\nuser:1000:rwx\ngroup::r-x\ngroup:1000:r-x\nmask::rw-\nother::r--\n\n' > /tmp/acl.want
	expect_acl dacl/new
	echo "$FS: $(wc -l < /tmp/xattr.after) lines of attributes and $(wc -l < /tmp/facl.after) of ACLs as before the remount"

	step "$FS: removing the attributes from every sharer frees the block"
	(cd $MNT/share && $SETFATTR -x user.small $files && $SETFATTR -x trusted.t $files &&
		$SETFATTR -x user.big $files) || fail "$FS: removing the sharers' attributes"
	expect_names share/f1 ""
	sync
	free2=$(stat -f -c %f $MNT)
	[ "$free2" -eq "$free0" ] ||
		fail "$FS: $free2 blocks free after removing the shared attributes, not the $free0 of before"
	fs_umount
	sharer_blocks > /tmp/blocks
	[ "$(cat /tmp/blocks)" = "$NSHARE 0" ] ||
		fail "$FS: after the removal debugfs shows File ACL blocks: $(cat /tmp/blocks | tr '\n' ';')"
	$DEBUGFS -R "testb $blk" $DEV > /tmp/testb.out 2>&1
	grep -q "not in use" /tmp/testb.out ||
		{ cat /tmp/testb.out; fail "$FS: the shared xattr block $blk is still in use"; }
	echo "$FS: block $blk freed; statfs back to $free0 free blocks"
	fs_fsck
done
echo "ext2 xattrs and ACLs: all checks passed"
