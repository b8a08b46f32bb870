#!/bin/bash
# web-ab.sh - the web experiment with a real client: Apache's ab (Debian apache2-utils) on
# the host, through QEMU's user-mode network forwarding 127.0.0.1:WEB_AB_PORT (default
# 18080, loopback only) to the server at depth 0 and 1 (images webab-d0, webab-d1), 20
# concurrent connections like the paper, WEB_AB_N (default 2000) requests.  Wall-clock and
# without icount: the figures are noisy on shared machines and this is not part of
# `make eval`; it is for real hardware (KVM=1 boots with -enable-kvm where /dev/kvm is
# usable).  Prints `bench web-ab depth=D conns_per_s=.. mean_ms=.. p95_ms=.. failed=..`.
# shellcheck source=eval/lib.sh
. "$(dirname "$0")/lib.sh"
eval_args "$@"

command -v ab >/dev/null || { skipped "no ab (apt-get install apache2-utils)"; exit "$EVAL_SKIP"; }
need_images webab-d0 webab-d1
port=${WEB_AB_PORT:-18080} n=${WEB_AB_N:-2000}
kvm=()
[ "${KVM:-0}" = 1 ] && kvm=(--kvm)

: >"$EVAL_OUT/web-ab.lines"
for img in "${IMAGES[@]}"; do
	make -s --no-print-directory image IMAGE="$img" >/dev/null
	log=$EVAL_LOGS/$img.log
	# a session of its own, so that stopping it stops QEMU too (run.sh runs it under timeout)
	HR_HOSTFWD=$port setsid bash images/run.sh "build/images/$img/$img.iso" --timeout 600 \
		"${kvm[@]}" >"$log" 2>&1 </dev/null &
	qemu=$!
	up=0
	for _ in $(seq 1 120); do
		if curl -s -m 2 -o /dev/null "http://127.0.0.1:$port/"; then up=1; break; fi
		sleep 1
	done
	if [ "$up" = 0 ]; then
		kill -- -"$qemu" 2>/dev/null; wait "$qemu" 2>/dev/null
		echo "error: $img: the server did not answer on 127.0.0.1:$port (console: $log)" >&2
		exit 1
	fi
	ab -q -n "$n" -c 20 "http://127.0.0.1:$port/" >"$EVAL_LOGS/$img.ab" 2>&1 || true
	kill -- -"$qemu" 2>/dev/null; wait "$qemu" 2>/dev/null || true
	awk -v d="${img##*-d}" '
		/^Requests per second:/ { rps = $4 }
		/^Time per request:.*\(mean\)$/ { mean = $4 }
		/^Failed requests:/ { failed = $3 }
		/^  95%/ { p95 = $2 }
		END {
			if (rps == "") { print "error: no figures from ab" > "/dev/stderr"; exit 1 }
			printf "bench web-ab depth=%s conns_per_s=%s mean_ms=%s p95_ms=%s failed=%s\n", d, rps, mean, p95, failed
		}' "$EVAL_LOGS/$img.ab" | tee -a "$EVAL_OUT/web-ab.lines"
done
# the table web.sh writes, from ab's figures
{
	echo "| depth | connections / s | mean latency (ms) | p95 latency (ms) | failed |"
	echo "| ---: | ---: | ---: | ---: | ---: |"
	tr '=' ' ' <"$EVAL_OUT/web-ab.lines" | awk '{ printf "| %s | %s | %s | %s | %s |\n", $4, $6, $8, $10, $12 }'
} | tee "$EVAL_OUT/web-ab-table.md"
