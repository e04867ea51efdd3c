#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mkinitramfs.sh OUT SCENARIO...: the guest's root filesystem, from Debian's
# packages: busybox-static, mkfs.minix/fsck.minix (util-linux), mke2fs/
# e2fsck/debugfs (e2fsprogs), setpriv (util-linux), the attr, acl and quota
# tools, with the shared libraries they need; our tools
# (qemu-integration/fsbx/*.c), our init, the scenario library and the
# named scenarios.
. "$(dirname "$0")/../scripts/common.sh"

out=$1; shift
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
# mktemp's 0700 would be the guest's /: the scenarios run tools as other users.
chmod 755 "$root"
mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,mnt,etc,fsb,scenarios}

cp /bin/busybox "$root/bin/busybox"
file -L /bin/busybox | grep -q 'statically linked' ||
	die "/bin/busybox is not the static one: install busybox-static"

# A binary (as /sbin/NAME, or /sbin/$2) and every library it loads, at
# the same paths as on the host.
add_bin() {
	local bin lib
	bin=$(command -v "$1" || echo "/sbin/$1")
	[ -x "$bin" ] || die "$1 not found (install its package: make deps)"
	install -D "$bin" "$root/sbin/${2:-$1}"
	for lib in $(ldd "$bin" | grep -o '/[^ ]*'); do
		[ -e "$root$lib" ] || install -D "$(readlink -f "$lib")" "$root$lib"
	done
}
for b in mkfs.minix fsck.minix mke2fs e2fsck; do add_bin "$b"; done
# util-linux's mount(8), for the scenarios that need the kernel's reasons
# for refusing a mount: busybox mounts with MS_SILENT, which mutes them.
add_bin mount mount.util-linux
# The ext2-xattr-acl, ext2-quota and ext2-tune2fs scenarios: Debian's attr,
# acl and quota tools, debugfs to read the image, setpriv to run as another
# user, tune2fs to write a mounted filesystem's superblock.
for b in debugfs dumpe2fs tune2fs setpriv setfattr getfattr setfacl getfacl quotacheck \
	 quotaon quotaoff setquota repquota quota; do
	add_bin "$b"
done
# The quota tools find the mounted filesystems in /etc/mtab.
ln -s /proc/mounts "$root/etc/mtab"
[ -e "$root/lib64" ] || ln -s lib "$root/lib64" 2>/dev/null || true
# mke2fs looks for its configuration; an empty one gives the defaults.
: > "$root/etc/mke2fs.conf"
[ -f /etc/mke2fs.conf ] && cp /etc/mke2fs.conf "$root/etc/mke2fs.conf"

# Our data-integrity exerciser, image damager and directory lister, static
# like busybox.
for t in fsbx mximg fsbflip fsbls fsbsync fsbtree; do
	gcc -static -O2 -Wall -Wextra -Werror -o "$root/bin/$t" \
		"$REPO/qemu-integration/fsbx/$t.c" || die "cannot build $t (needs gcc, libc6-dev)"
done

# make bench's workloads (INITRAMFS_BENCH=1): Debian's dbench with its
# client.txt, and fio.
if [ "${INITRAMFS_BENCH:-0}" = 1 ]; then
	add_bin dbench
	add_bin fio
	cp /usr/share/dbench/client.txt "$root/fsb/client.txt" ||
		die "no /usr/share/dbench/client.txt (install dbench: make deps)"
fi

install -m 755 "$REPO/qemu-integration/init" "$root/init"
cp "$REPO/qemu-integration/lib.sh" "$root/fsb/lib.sh"
for s in "$@"; do cp "$s" "$root/scenarios/"; done

mkdir -p "$(dirname "$out")"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) > "$out.tmp"
mv "$out.tmp" "$out"
say "initramfs: $out ($(du -h "$out" | cut -f1), $# scenarios)"
