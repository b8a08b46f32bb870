#!/bin/bash
# images/test/run.sh - the manifest tests: every good/*.dts must pass `hrimage --check` (and
# build: descriptor, GRUB menu, env); every bad/X.dts must fail with exactly the one line in
# bad/X.expect.  A manifest too large or too binary to keep as a file (bad/X.gen, a Bash
# script printing it) is generated as X.dts in a scratch directory and judged the same way.
# X.also, if present, is a second manifest file given after X.dts (as tests/images/*.dts
# are given after MANIFEST).  good/X.list, if present, is the expected `hrimage --list`
# output; good/X.desc, if present, lists "IMAGE NODE PROPERTY VALUE..." lines that the
# built descriptors must hold (fdtget -t u; VALUE -: the property must be absent).
# The examples in docs/MANIFEST.md must be copies of the good files they name.
# Usage: images/test/run.sh [HRIMAGE]      (from the top of the tree; make manifest-test)
#
# The programs the manifests name are fixtures made here, not real builds: identical small
# ELF files (2 text pages, 1 data page, 1 bss page; 16 KiB on disk), so that the memory
# figures in the expected messages do not change when a real program does.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
hrimage=$(realpath "${1:-$top/build/host/hrimage}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

ok() {
	echo "ok   manifest $1"
	passed=$((passed + 1))
}

fail() {
	echo "FAIL manifest $1: $2"
	failed=$((failed + 1))
}

# A static x86-64 executable that rm/elf.c accepts: text at 0x401000 (2 pages), data at
# 0x403000 (1 page in the file, 2 in memory).
make_fixture() {
	python3 - "$1" <<'PY'
import struct, sys
ehdr = struct.pack('<16sHHIQQQIHHHHHH', b'\x7fELF\x02\x01\x01' + bytes(9), 2, 62, 1,
                   0x401000, 64, 0, 0, 64, 56, 2, 64, 0, 0)
text = struct.pack('<IIQQQQQQ', 1, 5, 0x1000, 0x401000, 0x401000, 0x2000, 0x2000, 0x1000)
data = struct.pack('<IIQQQQQQ', 1, 6, 0x3000, 0x403000, 0x403000, 0x1000, 0x2000, 0x1000)
body = (ehdr + text + data).ljust(0x1000, b'\0') + b'\xf4'.ljust(0x2000, b'\0') + bytes(0x1000)
open(sys.argv[1], 'wb').write(body)
PY
}

progs=$tmp/prog
mkdir -p "$progs"
for p in chain hello root rt spin web m01 m02 m03 m04 m05 m06 m07 m08 m09 m10; do
	make_fixture "$progs/$p.elf"
done
echo "this is not an ELF file" >"$progs/broken.elf"

# Every "IMAGE NODE PROPERTY VALUE..." line of $1 against the descriptors under $2; a
# VALUE of - says the node has no such property (or there is no such node).
check_desc() {
	local image node prop want got
	while read -r image node prop want; do
		if ! got=$(fdtget -t u "$2/$image/descriptor.dtb" "$node" "$prop" 2>&1); then
			[ "$want" = - ] && continue
		fi
		if [ "$got" != "$want" ]; then
			echo "$image $node $prop is '$got', not '$want'"
			return 1
		fi
	done <"$1"
}

# X.also, if present, is a second manifest file given after X.dts (as a test image's file
# is given after MANIFEST).
files() {
	echo "$1.dts"
	[ -f "$1.also" ] && echo "$1.also"
	return 0
}

check_good() {
	local name=$1 err
	local -a in
	mapfile -t in < <(files "$name")
	rm -rf "$tmp/out"
	if ! err=$("$hrimage" "${in[@]}" --programs "$progs" --check 2>&1); then
		fail "good/$name" "$err"
	elif ! err=$("$hrimage" "${in[@]}" --programs "$progs" --out "$tmp/out" 2>&1 >/dev/null); then
		fail "good/$name" "build: $err"
	elif [ -f "$name.list" ] &&
		! diff -u "$name.list" <("$hrimage" "${in[@]}" --programs "$progs" --list) >"$tmp/diff"; then
		fail "good/$name" "--list differs: $(tr '\n' ' ' <"$tmp/diff")"
	elif [ -f "$name.desc" ] && ! err=$(check_desc "$name.desc" "$tmp/out"); then
		fail "good/$name" "descriptor: $err"
	else
		ok "good/$name"
	fi
}

check_bad() {
	local name=$1 expect=${2:-$1.expect} got want
	local -a in
	mapfile -t in < <(files "$name")
	want=$(cat "$expect")
	if got=$("$hrimage" "${in[@]}" --programs "$progs" --check 2>&1); then
		fail "bad/$name" "accepted (want: $want)"
	elif [ "$got" != "$want" ]; then
		fail "bad/$name" "got: $got (want: $want)"
	else
		ok "bad/$name"
	fi
}

# docs/MANIFEST.md: "<!-- example: images/test/good/X.dts -->" then a ```dts block.
check_docs() {
	local doc=$top/docs/MANIFEST.md file n=0
	# shellcheck disable=SC2013 # one path a line, no spaces in them
	for file in $(sed -n 's/^<!-- example: \(.*\) -->$/\1/p' "$doc"); do
		n=$((n + 1))
		awk -v f="$file" '
			$0 == "<!-- example: " f " -->" { want = 1; next }
			want && /^```/ { if (inside) exit; inside = 1; next }
			inside { print }' "$doc" >"$tmp/example"
		if cmp -s "$tmp/example" "$top/$file"; then
			ok "docs example $file"
		else
			fail "docs example $file" "docs/MANIFEST.md differs from $file"
		fi
	done
	[ "$n" -gt 0 ] || fail "docs examples" "docs/MANIFEST.md names no example"
}

cd "$top/images/test/good" || exit 1
for f in *.dts; do
	check_good "${f%.dts}"
done
cd "$top/images/test/bad" || exit 1
for f in *.dts; do
	if [ -f "${f%.dts}.expect" ]; then
		check_bad "${f%.dts}"
	else
		fail "bad/${f%.dts}" "no ${f%.dts}.expect"
	fi
done
mkdir -p "$tmp/gen"
for f in *.gen; do
	[ -e "$f" ] || continue
	if [ ! -f "${f%.gen}.expect" ]; then
		fail "bad/${f%.gen}" "no ${f%.gen}.expect"
	elif ! bash "$f" >"$tmp/gen/${f%.gen}.dts"; then
		fail "bad/${f%.gen}" "$f failed"
	else
		cd "$tmp/gen" && check_bad "${f%.gen}" "$top/images/test/bad/${f%.gen}.expect"
		cd "$top/images/test/bad" || exit 1
	fi
done
check_docs

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
