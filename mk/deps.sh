#!/bin/sh
# deps.sh - install the Debian packages the build, the tests and the evaluation need.
# Idempotent: asks apt only for what is missing.  Used by `make` (once, stamped in build/)
# and by .ci/run.  Needs root or sudo the first time.
set -eu

PKGS="make gcc libc6-dev binutils python3 qemu-system-x86 grub-pc-bin grub-common xorriso
mtools musl-tools device-tree-compiler libfdt-dev cppcheck clang-format gnuplot-nox cpio
shellcheck xz-utils apache2-utils curl busybox-static"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "deps: installing$missing (apt-get install, from the Debian mirrors apt is configured with)"
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q >/dev/null
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing >/dev/null
echo "deps: done"
