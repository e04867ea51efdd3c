#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install, from Debian's packages, whatever the project needs and is missing.
# Idempotent and quiet when everything is there.
. "$(dirname "$0")/common.sh"

PKGS=(linux-source-6.12 gcc make flex bison bc libelf-dev libssl-dev
      cpio xz-utils ccache qemu-system-x86 python3 perl git rsync kmod
      busybox-static util-linux util-linux-extra mount e2fsprogs file libc6-dev
      python3-ply python3-git dbench fio gnuplot-nox universal-ctags
      python3-sphinx attr acl quota)

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

mkdir -p "$BUILD"
[ "$(id -u)" -eq 0 ] || die "missing packages (${missing[*]}); run 'make deps' as root"
say "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Refresh the package lists only when an install fails for want of them.
if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >"$BUILD/apt.log" 2>&1; then
	apt-get update -q >/dev/null
	apt-get install -y -q --no-install-recommends "${missing[@]}" >"$BUILD/apt.log" 2>&1 ||
		{ tail -20 "$BUILD/apt.log"; die "apt-get install failed"; }
fi
say "installed ${#missing[@]} packages"
