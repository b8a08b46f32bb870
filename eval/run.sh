#!/bin/bash
# run.sh - run the evaluation experiments (default: all); the last line is
#   eval: N passed, N failed, N skipped
# An experiment passes when it ran, is skipped when it had nothing to run (its images are not
# in MANIFEST yet, no Linux kernel with --quick), and fails otherwise; its output is also in
# build/eval/logs/EXPERIMENT.out, its exit status in EXPERIMENT.exit (eval/report.sh reads
# both).  Before each experiment a progress line: "== [N/M] NAME (elapsed S s; after it: the rest)".
# docs/EVAL.md explains the experiments and their figures.
# --quick: few boots (depths 0, 1 and 16 only, no Linux kernel fetch), and first the self-test
# of the scripts on synthetic consoles (eval/test.sh), so that `make check` keeps them alive.
# web-ab (Apache's ab from the host, wall-clock) runs only when named.
# Usage: eval/run.sh [--quick] [micro|depth|depth-busy|preempt|walk|walk-side|walk-two|irq|web|web-ab|util|soak|servers|perf|linux|selftest]...
set -euo pipefail

cd "$(dirname "$0")/.."
ALL="micro depth depth-busy preempt walk walk-side walk-two irq web util soak servers perf linux"
out=${EVAL_OUT:-build/eval}
quick=() wanted=()
for a; do
	case $a in
	--quick) quick=(--quick) ;;
	micro | depth | depth-busy | preempt | walk | walk-side | walk-two | irq | web | web-ab | util | soak | servers | perf | linux | \
		selftest)
		wanted+=("$a")
		;;
	*)
		echo "run: unknown experiment '$a'; the experiments are: $ALL selftest" >&2
		exit 2
		;;
	esac
done
if [ ${#wanted[@]} = 0 ]; then
	# shellcheck disable=SC2206
	wanted=(${quick:+selftest} $ALL)
fi

# logs this run makes are reused by later experiments of the run (linux.sh: the HiRES side)
mkdir -p "$out/logs"
export EVAL_STAMP=$out/logs/.run
touch "$EVAL_STAMP"

passed=0 failed=0 skipped=0 start=$SECONDS i=0
for e in "${wanted[@]}"; do
	t=$SECONDS i=$((i + 1))
	rest=${wanted[*]:i}
	echo "== [$i/${#wanted[@]}] $e (elapsed $((t - start)) s; after it: ${rest:-nothing})"
	status=0
	if [ "$e" = selftest ]; then
		bash eval/test.sh >"$out/logs/$e.out" 2>&1 || status=$?
	else
		bash "eval/$e.sh" "${quick[@]}" 2>&1 | tee "$out/logs/$e.out" || status=$?
	fi
	echo "$status" >"$out/logs/$e.exit"
	case $status in
	0) passed=$((passed + 1)) r=ok ;;
	77) skipped=$((skipped + 1)) r=skipped ;;
	*) failed=$((failed + 1)) r="FAILED (status $status, output: $out/logs/$e.out)" ;;
	esac
	[ "$e" = selftest ] && grep -v '^ok ' "$out/logs/$e.out"
	echo "== $e: $r ($((SECONDS - t)) s)"
done
echo "eval: $((SECONDS - start)) s"
echo "eval: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
