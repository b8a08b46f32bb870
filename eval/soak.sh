#!/bin/bash
# soak.sh - a million random system calls from hostile children beside hard real-time
# tasks: boots image soak and echoes its `bench soak` lines (each reservation's expected and
# measured share over the whole run, its missed periods; the number of calls and how many
# ticks they took).  The image checks the figures itself (tests/images/soak.expect); this
# experiment fails if it did not report them.
# shellcheck source=eval/lib.sh
. "$(dirname "$0")/lib.sh"
eval_args "$@"

need_images soak
boot_images soak
console_lines bench "$EVAL_LOGS/soak.log" | tee "$EVAL_OUT/soak.lines"
grep -q 'calls=' "$EVAL_OUT/soak.lines" || { echo "error: image soak reported no calls" >&2; exit 1; }
