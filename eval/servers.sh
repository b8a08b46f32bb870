#!/bin/bash
# servers.sh - the deferrable server's double hit against the sporadic server's (docs/EVAL.md):
# runs build/eval/servers (eval/servers/servers.c, the real policies on a fake CPU), echoes
# its `bench servers` lines and plots the low-priority job's response time against the phase
# at which the server's work arrives: EVAL_OUT/servers-P.dat (phase response), servers.png.
# Fails when a worst case exceeds its analytic bound or the sporadic server's is not lower.
# shellcheck source=eval/lib.sh
. "$(dirname "$0")/lib.sh"
eval_args "$@"

bin=build/eval/servers
[ -x "$bin" ] || make --no-print-directory "$bin" >/dev/null
"$bin" >"$EVAL_OUT/servers.lines" || status=$?
grep '^bench ' "$EVAL_OUT/servers.lines"
for p in ds fprr; do
	awk -v p="$p" '$1 == "series" && $3 == "policy=" p {
		split($4, a, "="); split($5, r, "="); print a[2], r[2] }' \
		"$EVAL_OUT/servers.lines" >"$EVAL_OUT/servers-$p.dat"
done

plot "$EVAL_OUT/servers" <<PLOT
set title "Low-priority response beside a 2/10 server (job of 5 ticks)"
set xlabel "phase of the server's arrival in its period (ticks)"
set ylabel "response time of the low-priority job (ticks)"
set yrange [0:*]
set key outside right top
plot '$EVAL_OUT/servers-ds.dat' using 1:2 with linespoints lw 2 title 'deferrable (ds)', \
     '$EVAL_OUT/servers-fprr.dat' using 1:2 with linespoints lw 2 title 'sporadic (fprr)'
PLOT
exit "${status:-0}"
