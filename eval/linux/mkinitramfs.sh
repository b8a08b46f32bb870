#!/bin/bash
# mkinitramfs.sh - an initramfs for the Linux guests of the evaluation: INIT as /init, an
# empty /dev (the guest mounts devtmpfs there), /proc and /sys, and each FILE=PATH copied to
# /PATH.  The same bytes on every build of the same files.
# Usage: mkinitramfs.sh INIT OUT.cpio [FILE=PATH]...   (run by the top Makefile's eval section)
set -euo pipefail

[ $# -ge 2 ] || { echo "usage: mkinitramfs.sh INIT OUT.cpio [FILE=PATH]..." >&2; exit 2; }
init=$1 out=$2
shift 2
root=$out.root
rm -rf "$root"
mkdir -p "$root/dev" "$root/proc" "$root/sys"
cp "$init" "$root/init"
chmod 755 "$root/init"
for f; do
	src=${f%%=*} dst=${f#*=}
	if [ "$src" = "$f" ] || [ -z "$dst" ]; then
		echo "mkinitramfs: '$f' is not FILE=PATH" >&2
		exit 2
	fi
	mkdir -p "$root/$(dirname "$dst")"
	cp "$src" "$root/$dst"
done
find "$root" -exec touch -h -d @0 {} +
(cd "$root" && find . -mindepth 1 | sed 's|^\./||' | LC_ALL=C sort |
	cpio --quiet -o -H newc --reproducible --owner=0:0) >"$out"
rm -rf "$root"
