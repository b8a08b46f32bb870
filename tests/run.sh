#!/bin/bash
# tests/run.sh - every test of the distribution, in three tiers, one line per case:
#   host      unit tests of pure code under ASan/UBSan (build/htest/*)
#   docs      every system call has its section in docs/ABI.md, opening with the table's
#             arguments; every parent operation (rm/pi.h) its section in docs/PARENT.md;
#             make help lists every target
#   manifest  the image builder against good and bad manifests (images/test/run.sh)
#   image     images booted in QEMU under -icount (deterministic: the same instructions, the
#             same interleaving on every run); tests/images/NAME.expect lists, one per line,
#             "WRITER CASE": the component that must report "test CASE: ok" (a missing case
#             fails).  The kernel tags every line a component writes with its path in the tree,
#             "[WRITER] ..." (kernel/console.c), so no other component can report a case for
#             it; "!WRITER CASE" is a line that must not appear.  The tree that booted must equal build/images/NAME/tree.txt (what hrimage
#             expects from the image's file, tags included) and its root must finish; any
#             "test CASE: FAIL" fails too, and so does a kernel line "[k] BUG: ..." (an
#             invariant of its own broken).  An image with trace = <1> is booted with the
#             trace port (images/run.sh --trace), its trace decoded (images/trace.py) and
#             checked against NAME.tracks (tests/trace_check.py).  An optional NAME.lines
#             holds "CASE LINE": LINE must appear verbatim on the console, such as one of the
#             kernel's own "[k] ..." boot lines, which no component can write; an optional
#             NAME.run holds more options for images/run.sh (--nmi: NMIs while it runs)
# Before each tier, and each image of the image tier, a progress line ("== [2/4] docs
# (elapsed 3 s; after it: manifest image)").
# The last line is "N passed, N failed"; the exit status is non-zero on any failure.
# Usage: tests/run.sh [host|docs|manifest|image]...   (default: all tiers)
# Run by `make test`, which builds everything first.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
logs=$build/test-logs
passed=0
failed=0
start=$SECONDS
mkdir -p "$logs"

# progress N M WHAT REST: the line that says step N of M starts, and what follows it.
progress() {
	echo "== [$1/$2] $3 (elapsed $((SECONDS - start)) s; after it: ${4:-nothing})"
}

# Count the "N passed, N failed" line of a tier's output and show its case lines.
tally() {
	local out=$1 line p f
	grep -v -E '^[0-9]+ passed, [0-9]+ failed$' "$out"
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out" | tail -1)
	if [ -z "$line" ]; then
		echo "FAIL $2: no result line"
		failed=$((failed + 1))
		return
	fi
	p=${line%% passed*}
	f=${line#*, }
	f=${f%% failed*}
	passed=$((passed + p))
	failed=$((failed + f))
}

tier_host() {
	local t out
	for t in "$build"/htest/*; do
		out=$logs/host-$(basename "$t").log
		"$t" >"$out" 2>&1
		sed -i "s/^\(ok  \|FAIL\) /\1 host $(basename "$t") /" "$out"
		tally "$out" "host $(basename "$t")"
	done
}

# The system call table as "name(arg, arg, ...)" lines, in the table's order: the
# preprocessor expands kernel/abi/hr_syscall.h itself, so this reads what the code reads.
syscall_lines() {
	printf '%s\n' '#include "kernel/abi/hr_syscall.h"' \
		'#define HR_DOC_ARG(i, arg) , HR_ARG_NAME arg' \
		'#define HR_DOC_ROW(num, name, stub, ...) @name(HR_ARGS_EACH(HR_DOC_ARG, ##__VA_ARGS__))' \
		'HR_SYSCALLS(HR_DOC_ROW)' |
		cpp -P -std=gnu11 -D__ASSEMBLER__ -I"$top" - | tr -d ' \n' | { cat; echo; } |
		tr '@' '\n' | sed -e '/^$/d' -e 's/(,/(/' -e 's/,/, /g'
}

# docs/ABI.md has a section for every row of the system call table, and the section's
# first line starts with `name(arg, ...)`: the table's argument names, in order.
# docs_case VERDICT TEXT: one case of the docs tier (VERDICT ok or FAIL) into $out, counted
# in the caller's p and f.
docs_case() {
	if [ "$1" = ok ]; then
		echo "ok   docs $2" >>"$out"
		p=$((p + 1))
	else
		echo "FAIL docs $2" >>"$out"
		f=$((f + 1))
	fi
}

# docs/ABI.md: a section for every system call, opening with the table's arguments.
docs_syscalls() {
	local line name got
	while read -r line; do
		name=${line%%(*}
		if ! grep -q "^### \`$name\`" "$top/docs/ABI.md"; then
			docs_case FAIL "ABI.md has no section for system call $name"
			continue
		fi
		docs_case ok "ABI.md documents $name"
		# shellcheck disable=SC2016 # backquotes are Markdown, not expansions
		got=$(sed -n "/^### \`$name\`\$/{n;p;q}" "$top/docs/ABI.md" | sed -n 's/^`\([^`]*\)`.*/\1/p')
		if [ "$got" = "$line" ]; then
			docs_case ok "ABI.md $name section opens with its arguments $line"
		else
			docs_case FAIL "ABI.md $name section opens with \`${got:-nothing}\`, the table says \`$line\`"
		fi
	done < <(syscall_lines)
	[ "$(syscall_lines | wc -l)" -ge 20 ] || docs_case FAIL "the system call table did not expand (cpp)"
}

# docs/PARENT.md: a section for every row of the parent interface's table (rm/pi.h), its
# first line the signature, arguments in the table's order, and the number.
docs_parent() {
	local row num op args sig rows
	rows=$(sed -n '/^#define PI_OPS(X)/,/^$/p' "$top/rm/pi.h" | tr -d '\\\n\t' |
		grep -o 'X([0-9]*, *[A-Z0-9_]*, *[a-z0-9_]*, *[0-9], *([^)]*)')
	[ "$(grep -c . <<<"$rows")" = "$(grep -c '^[[:space:]]*X(' "$top/rm/pi.h")" ] ||
		docs_case FAIL "rm/pi.h has rows this test cannot read"
	while read -r row; do
		[[ $row =~ ^X\(([0-9]+),\ *[A-Z0-9_]+,\ *([a-z0-9_]+),\ *[0-9],\ *\(([^\)]*)\) ]] || continue
		num=${BASH_REMATCH[1]}
		op=${BASH_REMATCH[2]}
		# the tuple "(kind, arg, kind, arg ...)": every second word is an argument's name
		args=$(tr -d ' ' <<<"${BASH_REMATCH[3]}" | tr ',' '\n' | sed -n 'n;p' |
			paste -s -d, - | sed 's/,/, /g')
		sig="\`pi_$op($args)\` (operation $num)"
		if ! grep -q "^### \`$op\`$" "$top/docs/PARENT.md"; then
			docs_case FAIL "PARENT.md has no section for parent operation $op"
		elif [[ "$(awk -v h="### \`$op\`" '$0 == h { getline; print; exit }' \
			"$top/docs/PARENT.md")" != "$sig"* ]]; then
			docs_case FAIL "PARENT.md section $op does not begin with $sig"
		else
			docs_case ok "PARENT.md documents $op as $sig"
		fi
	done <<<"$rows"
}

# make help names every target the Makefile declares phony.
docs_help() {
	local help target
	help=$(make -s -C "$top" help 2>/dev/null)
	for target in $(sed -n 's/^\.PHONY://p' "$top/Makefile" | tr ' ' '\n' | sort -u); do
		[ "$target" = help ] && continue
		if grep -q -E "(make |\|)$target( |\||$)" <<<"$help"; then
			docs_case ok "make help lists $target"
		else
			docs_case FAIL "make help does not list target $target"
		fi
	done
}

tier_docs() {
	local out=$logs/docs.log p=0 f=0
	: >"$out"
	docs_syscalls
	docs_parent
	docs_help
	echo "$p passed, $f failed" >>"$out"
	tally "$out" docs
}

tier_manifest() {
	local out=$logs/manifest.log
	bash "$top/images/test/run.sh" "$build/host/hrimage" >"$out" 2>&1
	tally "$out" manifest
}

# judge_trace NAME TRACKS: decode the trace an image's boot left and check its tracks; its
# case lines into $out, counted in the caller's p and f.
judge_trace() {
	local json=$logs/image-$1.json tracks=$2 lines
	[ -f "$tracks" ] || tracks=/dev/null
	if ! python3 "$top/images/trace.py" "$logs/image-$1.trace" "$json" >/dev/null 2>"$json.err"; then
		echo "FAIL trace $1 decodes: $(head -1 "$json.err")" >>"$out"
		f=$((f + 1))
		return
	fi
	lines=$(python3 "$top/tests/trace_check.py" "$1" "$json" "$tracks")
	echo "$lines" >>"$out"
	p=$((p + $(grep -c '^ok' <<<"$lines")))
	f=$((f + $(grep -c '^FAIL' <<<"$lines")))
}

# judge_lines NAME FILE: each "CASE LINE" of FILE (if there is one): LINE appears verbatim
# on the console; case lines into $out, counted in the caller's p and f.
judge_lines() {
	local c l
	[ -f "$2" ] || return 0
	while read -r c l; do
		[ -z "$c" ] && continue
		if grep -a -q -x -F "$l" "$logs/image-$1.log.lines"; then
			echo "ok   image $1 $c" >>"$out"
			p=$((p + 1))
		else
			echo "FAIL image $1 $c: no line '$l'" >>"$out"
			f=$((f + 1))
		fi
	done <"$2"
}

# Boot one image and judge its console against its .expect list.
judge_image() {
	local name=$1 expect=$2 log=$logs/image-$1.log out=$logs/image-$1.result
	local timeout_s=120 p=0 f=0 c w TRACE=0 trace=() more=()
	# shellcheck disable=SC1090
	[ -f "$build/images/$name/image.env" ] && . "$build/images/$name/image.env" && timeout_s=${TIMEOUT_S:-120}
	[ "$TRACE" = 1 ] && trace=(--trace "$logs/image-$name.trace")
	# NAME.run: more options for images/run.sh (--nmi)
	[ -f "${expect%.expect}.run" ] && read -ra more <"${expect%.expect}.run"
	bash "$top/images/run.sh" "$build/images/$name/$name.iso" --icount --timeout "$timeout_s" \
		"${trace[@]}" "${more[@]}" >"$log" 2>&1
	local rc=$?
	: >"$out"
	[ "$TRACE" = 1 ] && judge_trace "$name" "${expect%.expect}.tracks"
	tr -d '\r' <"$log" >"$log.lines"
	while read -r w c; do
		[ -z "$w" ] && continue
		if [ -z "$c" ]; then
			echo "FAIL image $name expectation '$w' names no writer (lines are: WRITER CASE)" >>"$out"
			f=$((f + 1))
			continue
		fi
		if [ "${w#!}" != "$w" ]; then
			# "!WRITER CASE": a line that must not appear (a forgery the kernel's tag defeats)
			if grep -a -q -x -F "[${w#!}] test $c: ok" "$log.lines"; then
				echo "FAIL image $name not_said_by_${w#!}_$c: someone said it as ${w#!}" >>"$out"
				f=$((f + 1))
			else
				echo "ok   image $name not_said_by_${w#!}_$c" >>"$out"
				p=$((p + 1))
			fi
			continue
		fi
		if grep -a -q -x -F "[$w] test $c: ok" "$log.lines"; then
			echo "ok   image $name $c" >>"$out"
			p=$((p + 1))
		else
			echo "FAIL image $name $c: [$w] said $(grep -a -F "[$w] test $c:" "$log.lines" | head -1 || echo nothing)" >>"$out"
			f=$((f + 1))
		fi
	done <"$expect"
	judge_lines "$name" "${expect%.expect}.lines"
	# the tree that booted is the tree in the manifest (every node reports one line, again
	# each time it is restarted)
	if diff <(sort -u "$build/images/$name/tree.txt") \
		<(grep -a -E '^\[[^]]*\] (subsystem|component) ' "$log.lines" | sort -u) \
		>"$logs/image-$name.tree-diff"; then
		echo "ok   image $name booted_tree_equals_manifest" >>"$out"
		p=$((p + 1))
	else
		echo "FAIL image $name booted_tree_equals_manifest: $(tr '\n' ' ' <"$logs/image-$name.tree-diff")" >>"$out"
		f=$((f + 1))
	fi
	if grep -a -q "^\[root\] finished" "$log.lines"; then
		echo "ok   image $name finished" >>"$out"
		p=$((p + 1))
	else
		echo "FAIL image $name finished: the root never finished (QEMU exit $rc; log $log)" >>"$out"
		f=$((f + 1))
	fi
	# no tagged line carries an escape: one could move the cursor over its tag and redraw
	# the line as another writer's on a terminal (kernel/console.c shows it as '?')
	if grep -a -q $'^\\[[^]]*\\] .*\x1b' "$log.lines"; then
		echo "FAIL image $name no_escape_in_tagged_lines: $(grep -a -m1 $'^\\[[^]]*\\] .*\x1b' "$log.lines" | cat -v)" >>"$out"
		f=$((f + 1))
	else
		echo "ok   image $name no_escape_in_tagged_lines" >>"$out"
		p=$((p + 1))
	fi
	# the kernel says "[k] BUG: ..." when it finds one of its own invariants broken (no
	# component can write a [k] line)
	if grep -a -q "^\[k\] BUG:" "$log.lines"; then
		echo "FAIL image $name no_kernel_bug: $(grep -a -m1 "^\[k\] BUG:" "$log.lines")" >>"$out"
		f=$((f + 1))
	else
		echo "ok   image $name no_kernel_bug" >>"$out"
		p=$((p + 1))
	fi
	grep -a "^\[[^]]*\] test .*: FAIL" "$log.lines" | while read -r l; do echo "FAIL image $name unexpected: $l"; done >>"$out"
	f=$((f + $(grep -a -c "^\[[^]]*\] test .*: FAIL" "$log.lines")))
	echo "$p passed, $f failed" >>"$out"
}

# Images boot two at a time: the machine has two cores and QEMU TCG uses one each.
tier_image() {
	local e name n=0 images=("$top"/tests/images/*.expect)
	for e in "${images[@]}"; do
		name=$(basename "$e" .expect)
		progress "$((n + 1))" "${#images[@]}" "image $name" "images left: $((${#images[@]} - n - 1))"
		judge_image "$name" "$e" &
		n=$((n + 1))
		[ $((n % 2)) = 0 ] && wait
	done
	wait
	for e in "$top"/tests/images/*.expect; do
		name=$(basename "$e" .expect)
		tally "$logs/image-$name.result" "image $name"
	done
}

tiers=("$@")
[ ${#tiers[@]} = 0 ] && tiers=(host docs manifest image)
i=0
for t in "${tiers[@]}"; do
	i=$((i + 1))
	case $t in
	host | docs | manifest | image)
		progress "$i" "${#tiers[@]}" "$t" "${tiers[*]:i}"
		"tier_$t"
		;;
	*) echo "unknown tier '$t' (tiers: host docs manifest image)" >&2; exit 2 ;;
	esac
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
