#!/bin/bash
# preempt.sh - the worst case of a dispatch across levels: images preempt-d0 .. -d16 run
# depthbench's benchmarks in the root while a busy task (best effort, the least urgent,
# never sleeping) spins in the innermost of D nested levels below it (MANIFEST: preempt),
# whose scheduler takes a turn at every tick (its task `tick`).
# Every wake-up of the root's timer thread preempts that busy thread, and the dispatch
# closes each level it ran at, 0 .. D: the root's at once, the levels below it, the
# thread's own among them, as sums behind (kernel/schedtree.c close_levels, behind;
# docs/EVAL.md).  The other figures are the root's own and do not meet the busy thread,
# so their medians stay flat (a sample a tick falls in meets the innermost's turn: its
# maximum).  Each line's depth is D, the busy
# thread's (DEPTH_BY_IMAGE); depth.sh does the sweep, the data (ID-preempt.dat), the plots
# (preempt.png), the checks and the targets.  The checks bound the growth: depth 16 within
# PREEMPT_FLAT_SLACK of depth 1 and PREEMPT_ROOT_SLACK of depth 0 (docs/EVAL.md has the
# figures and what each level costs).
export DEPTH_IMAGE=preempt DEPTH_SUFFIX=preempt EVAL_AS=eval/preempt.sh DEPTH_BY_IMAGE=1
export DEPTH_XLABEL="depth of the busy thread preempted (0 = in the root's subsystem)"
export DEPTH_AGAINST="the depth of the thread preempted"
export DEPTH_FLAT_SLACK=${PREEMPT_FLAT_SLACK:-0.03} DEPTH_ROOT_SLACK=${PREEMPT_ROOT_SLACK:-0.03}
exec bash "$(dirname "$0")/depth.sh" "$@"
