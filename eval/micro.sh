#!/bin/bash
# micro.sh - the microbenchmarks of image bench (subsystems/bench: invocation round trip,
# thread switch): echoes its `bench` lines.
# shellcheck source=eval/lib.sh
. "$(dirname "$0")/lib.sh"
eval_args "$@"

need_images bench
boot_images bench
console_lines bench "$EVAL_LOGS/bench.log" | grep . || { echo "error: no bench lines in image bench's console" >&2; exit 1; }
