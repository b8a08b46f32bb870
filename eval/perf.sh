#!/bin/bash
# perf.sh - the performance regression check: the instruction counts of this run's micro,
# depth, depth-busy, irq, preempt, walk and walk-side (walk_wake only) experiments (their
# logs in EVAL_OUT/logs) against the table eval/expected.txt.
# Under -icount shift=0 the counts are exact, so a figure that moves by more than
# PERF_SLACK (default 0.02) either way fails: a regression is a bug, an improvement must
# update the table in the same commit (the message says which row).  One `check perf ...`
# line per row; rows whose experiment did not run (no log) are skipped.
# shellcheck source=eval/lib.sh
. "$(dirname "$0")/lib.sh"
eval_args "$@"

table=eval/expected.txt
slack=${PERF_SLACK:-0.02}
[ -f "$EVAL_LOGS/micro.out" ] || [ -f "$EVAL_LOGS/depth.out" ] || {
	skipped "no micro or depth log of this run (run them first)"
	exit 77
}
# of preempt only the timer, the figure that preempts, as preempt_timer: its other figures
# are the root's own, which depth's rows at depth 0 already check; of depth-busy the two
# that meet the busy tasks, the timer and the event, as busy_timer and busy_event
{
	cat "$EVAL_LOGS/micro.out" "$EVAL_LOGS/depth.out" "$EVAL_LOGS/irq.out" \
		"$EVAL_LOGS/walk.out" 2>/dev/null | grep '^bench ' || true
	grep '^bench walk_wake ' "$EVAL_LOGS/walk-side.out" 2>/dev/null || true
	sed -n 's/^bench timer /bench preempt_timer /p' "$EVAL_LOGS/preempt.out" 2>/dev/null || true
	sed -n 's/^bench \(timer\|event\) /bench busy_\1 /p' "$EVAL_LOGS/depth-busy.out" \
		2>/dev/null || true
} >"$EVAL_OUT/perf.lines"
awk -v slack="$slack" -v table="$table" '
	FILENAME != table {
		key = $2; med = ""
		for (i = 3; i <= NF; i++) {
			if ($i ~ /^depth=/) key = key " " $i
			if ($i ~ /^median=/) med = substr($i, 8)
		}
		if (med != "") got[key] = med
		next
	}
	/^#/ || NF < 2 { next }
	{
		key = $1; for (i = 2; i < NF; i++) key = key " " $i; want = $NF
		if (!(key in got)) { skipped++; next }
		r = got[key] / want
		if (r > 1 + slack) { bad++; v = "FAIL (regression: " got[key] ", table " want ")" }
		else if (r < 1 - slack) { bad++; v = "FAIL (improved to " got[key] ": update " table ")" }
		else v = "ok (" got[key] ", table " want ")"
		printf "check perf %s within %s: %s\n", key, slack, v
		checked++
	}
	END {
		printf "perf: %d rows checked, %d not measured in this run\n", checked, skipped
		exit bad > 0 || checked == 0
	}' "$EVAL_OUT/perf.lines" "$table"
