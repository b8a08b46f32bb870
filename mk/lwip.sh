#!/bin/sh
# lwip.sh - fetch lwIP's source from Debian and unpack it under build/ (never committed).
#
# Debian 12 ships lwIP 2.1.3 only as a source package (its binary liblwip0 is a pthread
# "unix port" of no use to us; docs/NETWORK.md).  apt fetches the orig tarball through a
# deb-src list of our own under build/, so the machine's apt configuration is left alone;
# apt checks the tarball against the signed index and we check its sha256 again, so a
# changed archive stops the build instead of building something else.
# Usage: sh mk/lwip.sh BUILD_DIR
set -eu

B=${1:-build}
VER=2.1.3
TARBALL=lwip_$VER+dfsg1.orig.tar.xz
SHA256=0a8276d09fc4e97bbba2f953d74af2388fc2195ea156be9d7589e297a68fde24
mkdir -p "$B/lwip-apt"
D=$(cd "$B/lwip-apt" && pwd)
mkdir -p "$D/parts" "$D/lists/partial" "$D/cache/archives/partial"
: >"$D/none.list"
if ! echo "$SHA256  $D/$TARBALL" | sha256sum -c --status 2>/dev/null; then
	echo "lwip: fetching Debian's source package lwip ($VER) with apt-get source, from the mirrors in /etc/apt"
	src=/etc/apt/sources.list.d/debian.sources
	if [ -f "$src" ]; then
		sed 's/^Types: deb$/Types: deb-src/' "$src" >"$D/parts/src.sources"
	else
		sed -n 's/^deb /deb-src /p' /etc/apt/sources.list >"$D/parts/src.list"
	fi
	APT="-o Dir::Etc::sourcelist=$D/none.list -o Dir::Etc::sourceparts=$D/parts
	     -o Dir::State::Lists=$D/lists -o Dir::Cache=$D/cache -o Debug::NoLocking=1
	     -o APT::Sandbox::User=root"
	# shellcheck disable=SC2086
	apt-get $APT -q update >/dev/null
	# shellcheck disable=SC2086
	(cd "$D" && apt-get $APT -q source --download-only lwip >/dev/null)
	echo "$SHA256  $D/$TARBALL" | sha256sum -c --status || {
		echo "lwip: $D/$TARBALL does not have the sha256 we expect ($SHA256)" >&2
		exit 1
	}
fi
rm -rf "$B/lwip-$VER"
tar xJf "$D/$TARBALL" -C "$B"
touch "$B/lwip-$VER/.unpacked"
echo "lwip: unpacked into $B/lwip-$VER"
