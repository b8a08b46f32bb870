#!/bin/bash
# util.sh - CPU reservations at work: boots image rtmix, echoes its `bench util` lines
# (expected and measured share of each reservation in each phase) and plots the
# `series util t=T res=R pct=P` lines: EVAL_OUT/util-R-time.dat (t pct) and util.png.
# Checks every `bench util` line: measured within UTIL_SLACK (default 0.5) percentage points
# of expected, one `check ... ok|FAIL` line each; the experiment fails otherwise.
# shellcheck source=eval/lib.sh
. "$(dirname "$0")/lib.sh"
eval_args "$@"

need_images rtmix
boot_images rtmix
console_lines bench "$EVAL_LOGS/rtmix.log" | tee "$EVAL_OUT/util-bench.lines"
awk -v s="${UTIL_SLACK:-0.5}" '
	$2 == "util" {
		for (i = 3; i <= NF; i++) { eq = index($i, "="); v[substr($i, 1, eq - 1)] = substr($i, eq + 1) }
		d = v["measured"] - v["expected"]; if (d < 0) d = -d
		ok = d <= s; bad += !ok
		printf "check util res=%s phase=%s within %s points: %s\n", v["res"], v["phase"], s, ok ? "ok" : "FAIL (off by " d ")"
	}
	END { exit bad > 0 }' "$EVAL_OUT/util-bench.lines" || util_failed=1
console_lines series "$EVAL_LOGS/rtmix.log" | awk '$2 == "util"' >"$EVAL_OUT/util.lines"
[ -s "$EVAL_OUT/util.lines" ] || { echo "error: no 'series util' lines in image rtmix's console" >&2; exit 1; }

plots=()
while read -r id label; do
	plots+=("'$EVAL_OUT/$id-time.dat' using 1:2 with lines lw 2 title '${label#util res=}'")
done < <(split_series time t pct <"$EVAL_OUT/util.lines")

plot "$EVAL_OUT/util" <<EOF
set title "CPU utilization of each reservation over time (image rtmix)"
set xlabel "time (ticks of 1 ms)"
set ylabel "CPU utilization (%)"
set yrange [0:*]
set key outside right top
plot $(IFS=,; echo "${plots[*]}")
EOF
[ -z "${util_failed:-}" ]
