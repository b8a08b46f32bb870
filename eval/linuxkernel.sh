# shellcheck shell=bash
# eval/linuxkernel.sh - Debian's Linux kernel for the experiments that boot Linux in the same
# QEMU (linux.sh, web.sh); sourced after lib.sh.  The kernel: LINUX_KERNEL, else the newest
# /boot/vmlinuz-* (package linux-image-amd64), else one fetched from Debian into
# build/eval/linux/boot.  The e1000 module of that kernel (web.sh) from /lib/modules, else
# from the same package, fetched into build/eval/linux/lib/modules.
LINUX_DIR=build/eval/linux
E1000_PATH=kernel/drivers/net/ethernet/intel/e1000/e1000.ko

linux_kernel() {
	local k
	for k in "${LINUX_KERNEL:-}" $(printf '%s\n' /boot/vmlinuz-* "$LINUX_DIR"/boot/vmlinuz-* | sort -V -r); do
		[ -f "$k" ] && echo "$k" && return 0
	done
	return 1
}

# linux_fetch [PACKAGE]: Debian's kernel package (default: the one linux-image-amd64
# depends on), its kernel image and e1000 module unpacked into LINUX_DIR (no root needed,
# nothing installed)
linux_fetch() {
	local pkg=${1:-} url log=$LINUX_DIR/fetch.log
	mkdir -p "$LINUX_DIR"
	[ -n "$pkg" ] || pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/ { print $2; exit }')
	url=$(apt-get download --print-uris "${pkg:-linux-image-amd64}" 2>/dev/null | cut -d"'" -f2 || true)
	echo "linux: fetching ${pkg:-linux-image-amd64} (about 70 MB) from ${url:-the Debian archive (apt)} into $LINUX_DIR" >&2
	if [ -z "$pkg" ] || ! (cd "$LINUX_DIR" && apt-get download "$pkg") >"$log" 2>&1; then
		echo "linux: could not fetch it (see $log); 'apt-get update' may help, or install linux-image-amd64" >&2
		return 1
	fi
	dpkg-deb --fsys-tarfile "$LINUX_DIR/${pkg}"_*.deb |
		tar -x -C "$LINUX_DIR" --wildcards './boot/vmlinuz-*' "./lib/modules/*/$E1000_PATH"
	rm -f "$LINUX_DIR/${pkg}"_*.deb
}

# linux_e1000 KERNEL: the e1000 module of that kernel (its version from the name vmlinuz-VER)
linux_e1000() {
	local ver=${1##*/vmlinuz-} d
	for d in /lib/modules "$LINUX_DIR/lib/modules"; do
		[ -f "$d/$ver/$E1000_PATH" ] && echo "$d/$ver/$E1000_PATH" && return 0
	done
	return 1
}
