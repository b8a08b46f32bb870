#!/bin/bash
# itrace.sh - where the instructions of a path go: boot an image with QEMU logging every
# instruction (images/run.sh --exec-log) and count each window's instructions by symbol
# (eval/itrace/itrace.c).  Under -icount shift=0 every run of a path costs the same, so
# each kind of window it prints is one path, with its cost function by function.
#
# Usage: bash eval/itrace.sh IMAGE FROM[..LAST] TO[:INSN] [ENDS]
#   FROM  the symbol a window opens at; with LAST, at any symbol from FROM to LAST
#         (vec_32..vec_63: the stub of any interrupt from vector 32 on)
#   TO    the symbol a window closes in, at its first instruction INSN (a mnemonic) if
#         given: ret_to_user:sysretq; ENDS: close at the ENDS-th time there (default 1)
# Examples (the images are `make image`'s):
#   bash eval/itrace.sh irq-d0 vec_32..vec_63 ret_to_user:sysretq # a frame's interrupt
#   bash eval/itrace.sh bench syscall_entry ret_to_user:sysretq   # every system call
#   ITRACE_PROGRAMS=depthbench bash eval/itrace.sh depth-d16 vec_48 ret_to_user:sysretq 2
#                                            # the timer: its deadline to the woken thread
# Programs share their addresses (each in its own space, which the log does not tell): user
# code is named from the image's programs, all of them unless ITRACE_PROGRAMS lists those
# to use (ITRACE_PROGRAMS=depthbench for depth-dD, whose echo component is `invoke`).
# Slow: QEMU runs one instruction a block (a minute or two for an image of a few seconds).
set -euo pipefail
cd "$(dirname "$0")/.."

[ $# -ge 3 ] || { sed -n '7,19p' "$0" >&2; exit 2; }
image=$1 from=$2 to=$3 ends=${4:-1}
iso=build/images/$image/$image.iso
[ -f "$iso" ] || { echo "itrace: no $iso (make image)" >&2; exit 2; }

dir=build/eval/itrace
mkdir -p "$dir"
gcc -O2 -Wall -Wextra -Werror -o "$dir/itrace" eval/itrace/itrace.c

# symbols: the kernel's and the image's programs'
PROGRAMS=""
TIMEOUT_S=120
# shellcheck source=/dev/null
. "build/images/$image/image.env"
nm -n build/kernel.elf >"$dir/kernel.nm"
nms=("$dir/kernel.nm")
for p in ${ITRACE_PROGRAMS:-$PROGRAMS}; do
	nm -n "build/prog/$p.elf" >"$dir/$p.nm"
	nms+=("$dir/$p.nm")
done

# SYMBOL -> its address (hex, no 0x)
addr_of() {
	local a
	a=$(awk -v s="$1" '$3 == s { print $1; exit }' "${nms[@]}")
	[ -n "$a" ] || { echo "itrace: no symbol $1" >&2; exit 2; }
	echo "$a"
}
# SYMBOL:INSN -> the address of INSN's first occurrence in SYMBOL
insn_in() {
	local a
	a=$(objdump -d --no-show-raw-insn build/kernel.elf |
		awk -v s="<$1>:" -v i="$2" '$2 == s { on = 1; next } on && /^$/ { exit }
			on && $2 == i { sub(":", "", $1); print $1; exit }')
	[ -n "$a" ] || { echo "itrace: no $2 in $1" >&2; exit 2; }
	echo "$a"
}

from_addr=$(addr_of "${from%%..*}")
span=1
[[ $from == *..* ]] && span=$(printf '%x' $((0x$(addr_of "${from#*..}") - 0x$from_addr + 1)))
if [[ $to == *:* ]]; then
	to_addr=$(insn_in "${to%%:*}" "${to#*:}")
else
	to_addr=$(addr_of "$to")
fi

fifo=$dir/exec.log
rm -f "$fifo"
mkfifo "$fifo"
"$dir/itrace" "$from_addr" "$span" "$to_addr" "$ends" "${nms[@]}" <"$fifo" >"$dir/$image.txt" &
reader=$!
bash images/run.sh "$iso" --icount --timeout $((TIMEOUT_S * 20)) --exec-log "$fifo" \
	>"$dir/$image.console" 2>&1 || true
wait "$reader"
rm -f "$fifo"
cat "$dir/$image.txt"
echo "itrace: console in $dir/$image.console" >&2
