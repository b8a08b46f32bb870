#!/bin/bash
# mkinitramfs.sh - the initramfs eval/linux.sh boots Linux with: the static binary INIT as
# /init and an empty /dev (lbench mounts devtmpfs there).  The same bytes on every build.
# Usage: mkinitramfs.sh INIT OUT.cpio   (run by the top Makefile's eval section)
set -euo pipefail

[ $# -eq 2 ] || { echo "usage: mkinitramfs.sh INIT OUT.cpio" >&2; exit 2; }
root=$2.root
rm -rf "$root"
mkdir -p "$root/dev"
cp "$1" "$root/init"
touch -h -d @0 "$root/init" "$root/dev"
(cd "$root" && printf 'dev\ninit\n' | cpio --quiet -o -H newc --reproducible --owner=0:0) >"$2"
rm -rf "$root"
