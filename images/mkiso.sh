#!/bin/bash
# mkiso.sh - the bootable ISO of one built image: kernel, the image's programs, its boot
# descriptor and GRUB menu (written by hrimage) go into a staging tree for grub-mkrescue.
# Usage: mkiso.sh IMAGE_DIR KERNEL PROGRAM_DIR   (writes IMAGE_DIR/NAME.iso)
# Does nothing when the ISO is newer than everything it is made of.
set -euo pipefail

if [ $# -ne 3 ]; then
	echo "usage: mkiso.sh IMAGE_DIR KERNEL PROGRAM_DIR" >&2
	exit 2
fi
dir=$1 kernel=$2 progs=$3
name=$(basename "$dir")
iso=$dir/$name.iso

# shellcheck source=/dev/null
. "$dir/image.env" # PROGRAMS, written by hrimage

inputs=("$kernel" "$dir/descriptor.dtb" "$dir/grub.cfg" "$0")
for p in $PROGRAMS; do
	inputs+=("$progs/$p.elf")
done

up_to_date() {
	[ -f "$iso" ] || return 1
	for f in "${inputs[@]}"; do
		[ "$f" -nt "$iso" ] && return 1
	done
	return 0
}
up_to_date && exit 0

stage=$dir/iso-root
rm -rf "$stage"
mkdir -p "$stage/boot/grub"
cp "$kernel" "$stage/boot/kernel.elf"
cp "$dir/descriptor.dtb" "$stage/boot/descriptor.dtb"
cp "$dir/grub.cfg" "$stage/boot/grub/grub.cfg"
for p in $PROGRAMS; do
	cp "$progs/$p.elf" "$stage/boot/$p.elf"
done

printf '  %-8s %s\n' ISO "$iso"
if ! grub-mkrescue -o "$iso.tmp" "$stage" >"$dir/grub-mkrescue.log" 2>&1; then
	cat "$dir/grub-mkrescue.log" >&2
	rm -f "$iso.tmp"
	echo "mkiso: grub-mkrescue failed for image $name" >&2
	exit 1
fi
mv "$iso.tmp" "$iso"
