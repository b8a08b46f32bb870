#!/bin/bash
# run.sh - boot an image's ISO in QEMU with the serial console on this terminal
# (Ctrl-A X quits).  The guest ends the run through isa-debug-exit, which makes QEMU exit
# with (code << 1) | 1; this script exits with the guest's code.
# Usage: run.sh ISO [--icount] [--timeout SECONDS] [--kvm]
#   --icount   deterministic instruction counting (-icount shift=0,sleep=off: an idle
#              guest jumps to its next timer, so idle time does not depend on the host)
#   --timeout  give up after SECONDS: exit 124
#   --kvm      use KVM if /dev/kvm works (default: TCG)
# Exit: the guest's code; 124 on a timeout; 125 if QEMU stopped without a code from the
# guest (reset, triple fault, Ctrl-A X) or could not start.
set -uo pipefail

usage() {
	echo "usage: run.sh ISO [--icount] [--timeout SECONDS] [--kvm]" >&2
	exit 2
}

[ $# -ge 1 ] || usage
iso=$1
shift
icount=0 timeout_s="" kvm=0
while [ $# -gt 0 ]; do
	case $1 in
	--icount) icount=1 ;;
	--kvm) kvm=1 ;;
	--timeout)
		[ $# -ge 2 ] || usage
		timeout_s=$2
		shift
		;;
	*) usage ;;
	esac
	shift
done
[ -f "$iso" ] || { echo "run: no such ISO: $iso" >&2; exit 2; }

MEMORY_MIB=256
env_file=$(dirname "$iso")/image.env
# shellcheck source=/dev/null
[ -f "$env_file" ] && . "$env_file"

# shellcheck disable=SC2054 # QEMU's own option syntax has commas
args=(-boot d -cdrom "$iso" -m "$MEMORY_MIB" -nographic -no-reboot
	-device isa-debug-exit,iobase=0xf4,iosize=0x04)
# shellcheck disable=SC2054
[ "$icount" = 1 ] && args+=(-icount shift=0,sleep=off)
if [ "$kvm" = 1 ]; then
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		args+=(-enable-kvm -cpu host)
	else
		echo "run: /dev/kvm is not usable; running under TCG" >&2
	fi
fi

# QEMU's own failures also exit 1, which isa-debug-exit uses for guest code 0: keep its
# stderr apart to tell them apart.
errf=$(mktemp)
trap 'rm -f "$errf"' EXIT
if [ -n "$timeout_s" ]; then
	timeout --foreground "$timeout_s" qemu-system-x86_64 "${args[@]}" 2>"$errf"
else
	qemu-system-x86_64 "${args[@]}" 2>"$errf"
fi
status=$?
cat "$errf" >&2
if [ "$status" = 1 ] && grep '^qemu-system-x86_64: ' "$errf" | grep -qv 'warning:'; then
	echo "run: QEMU failed" >&2
	exit 125
fi

if [ -n "$timeout_s" ] && [ "$status" = 124 ]; then
	echo "run: timeout after ${timeout_s} s" >&2
	exit 124
fi
if [ $((status & 1)) = 1 ]; then
	exit $((status >> 1))
fi
echo "run: QEMU exited with status $status without a code from the guest" >&2
exit 125
