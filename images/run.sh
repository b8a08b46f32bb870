#!/bin/bash
# run.sh - boot an image's ISO in QEMU with the serial console on this terminal
# (Ctrl-A X quits).  The guest ends the run through isa-debug-exit, which makes QEMU exit
# with (code << 1) | 1; this script exits with the guest's code.
# Usage: run.sh ISO [--icount] [--timeout SECONDS] [--kvm] [--trace FILE] [--nmi]
#                [--exec-log FILE]
#   --icount   deterministic instruction counting (-icount shift=0,sleep=off: an idle
#              guest jumps to its next timer, so idle time does not depend on the host)
#   --timeout  give up after SECONDS: exit 124
#   --kvm      use KVM if /dev/kvm works (default: TCG)
#   --trace    the second serial port (COM2, the kernel's trace port) into FILE; what a
#              kernel booted with trace=1 records arrives there (docs/TRACE.md)
#   --nmi      an NMI every 10 ms of host time while the guest runs (QEMU's monitor "nmi",
#              through a second monitor on a socket), landing wherever the guest happens to
#              be: a test that the kernel survives them (not deterministic, by nature)
#   --exec-log QEMU's log of every instruction the kernel and the programs execute, one
#              line each (-d exec,nochain, one instruction a block), into FILE (a FIFO:
#              eval/itrace.sh reads it as it comes; a whole run is gigabytes)
# The image's network cards (NET_CARDS in image.env, from the MANIFEST's net-cards) are
# e1000s joined by a QEMU hub, without their iPXE ROM; an image without cards has no NIC
# at all (-nic none: QEMU would otherwise add a user-mode e1000 open to the host).
# Environment: HR_HOSTFWD=PORT forwards tcp 127.0.0.1:PORT on the host to the guest's port
# 80 (10.0.2.15) through a user-mode network on the same hub, restricted to that
# forwarding (restrict=on); only for an image with a card, and only loopback is bound.
# Without it, the image's host-port (HOST_PORT in image.env) is forwarded the same way.
# Exit: the guest's code; 124 on a timeout; 125 if QEMU stopped without a code from the
# guest (reset, triple fault, Ctrl-A X) or could not start.
set -uo pipefail

usage() {
	echo "usage: run.sh ISO [--icount] [--timeout SECONDS] [--kvm] [--trace FILE] [--nmi] [--exec-log FILE]" >&2
	exit 2
}

[ $# -ge 1 ] || usage
iso=$1
shift
icount=0 timeout_s="" kvm=0 trace="" nmi=0 exec_log=""
while [ $# -gt 0 ]; do
	case $1 in
	--icount) icount=1 ;;
	--nmi) nmi=1 ;;
	--kvm) kvm=1 ;;
	--timeout)
		[ $# -ge 2 ] || usage
		timeout_s=$2
		shift
		;;
	--trace)
		[ $# -ge 2 ] || usage
		trace=$2
		shift
		;;
	--exec-log)
		[ $# -ge 2 ] || usage
		exec_log=$2
		shift
		;;
	*) usage ;;
	esac
	shift
done
[ -f "$iso" ] || { echo "run: no such ISO: $iso" >&2; exit 2; }

MEMORY_MIB=256 NET_CARDS=0 HOST_PORT=0
env_file=$(dirname "$iso")/image.env
# shellcheck source=/dev/null
[ -f "$env_file" ] && . "$env_file"

# shellcheck disable=SC2054 # QEMU's own option syntax has commas
args=(-boot d -cdrom "$iso" -m "$MEMORY_MIB" -nographic -no-reboot -nic none
	-device isa-debug-exit,iobase=0xf4,iosize=0x04)
# -nographic puts the monitor and COM1 on stdio; a second -serial is COM2
[ -n "$trace" ] && args+=(-serial mon:stdio -serial "file:$trace")
case $NET_CARDS in
0 | 1 | 2) ;;
*) echo "run: NET_CARDS=$NET_CARDS in $env_file: an image has 0 to 2 cards" >&2; exit 2 ;;
esac
# Card i: hub port ni, MAC 52:54:00:12:34:56 + i (QEMU's own first MAC, then the next).
for ((i = 0; i < NET_CARDS; i++)); do
	# shellcheck disable=SC2054
	args+=(-netdev "hubport,id=n$i,hubid=0"
		-device "e1000,netdev=n$i,romfile=,mac=52:54:00:12:34:5$((6 + i))")
done
# the image's own forwarding (host-port in MANIFEST) unless HR_HOSTFWD says otherwise
[ -z "${HR_HOSTFWD:-}" ] && [ "${HOST_PORT:-0}" != 0 ] && HR_HOSTFWD=$HOST_PORT
if [ -n "${HR_HOSTFWD:-}" ] && [ "$NET_CARDS" = 0 ]; then
	echo "run: HR_HOSTFWD ignored: the image has no network card" >&2
elif [ -n "${HR_HOSTFWD:-}" ]; then
	if [[ ! $HR_HOSTFWD =~ ^[0-9]{1,5}$ ]] || ((10#$HR_HOSTFWD < 1 || 10#$HR_HOSTFWD > 65535)); then
		echo "run: HR_HOSTFWD must be a port number, 1..65535" >&2
		exit 2
	fi
	# shellcheck disable=SC2054
	args+=(-netdev "user,id=u0,restrict=on,hostfwd=tcp:127.0.0.1:$HR_HOSTFWD-10.0.2.15:80"
		-netdev hubport,id=h0,hubid=0,netdev=u0)
	echo "run: http://127.0.0.1:$HR_HOSTFWD/ is the guest's port 80 (10.0.2.15), from this machine only" >&2
fi
# a user watching a terminal: the root may clear the screen (hrtop redraws in place,
# kernel/console.h); logs and tests get plain lines
# shellcheck disable=SC2054
[ -t 1 ] && args+=(-fw_cfg name=opt/hires/terminal,string=1)
# shellcheck disable=SC2054
[ "$icount" = 1 ] && args+=(-icount shift=0,sleep=off)
# the kernel (linked at -2 GiB) and the programs (static, from 4 MiB): not the firmware
# shellcheck disable=SC2054
[ -n "$exec_log" ] && args+=(-singlestep -d exec,nochain -D "$exec_log"
	-dfilter 0x400000..0x10000000,0xffffffff80000000..0xffffffffffffffff)
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
if [ "$nmi" = 1 ]; then
	mon=$(mktemp -u)
	trap 'rm -f "$errf" "$mon"' EXIT
	# shellcheck disable=SC2054
	args+=(-monitor "unix:$mon,server=on,wait=off")
	python3 "$(dirname "$0")/nmi.py" "$mon" &
fi
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
