#!/bin/bash
# walk-side.sh - walk.sh's sweep with a subsystem beside the levels: images walkside-d0 ..
# -d16 (MANIFEST: walkside) add, at depth 1, a subsystem whose task wakes and sleeps at
# every tick too, at the levels' priority in the root.  When it runs as the innermost
# scheduler's timer fires, that wake cannot take the CPU; its parent is told, and the
# levels above learn of it only as each next runs (kernel/schedtree.c, woke_later): when
# the subsystem beside idles, the root's turn dispatches the levels' top, whose turn
# dispatches the next, a scheduler's turn at every level (docs/ARCHITECTURE.md, limits).
# The same checks as walk's bound the max (the turns are preemptible); the target lines
# say what the median does.
export DEPTH_IMAGE=walkside DEPTH_SUFFIX=walk-side EVAL_AS=eval/walk-side.sh
export DEPTH_BY_IMAGE=1 DEPTH_CHECK=max
export DEPTH_XLABEL="depth of the subsystem that wakes at every tick (one beside at depth 1)"
export DEPTH_AGAINST="the depth of the work the timer meets"
export DEPTH_FLAT_SLACK=${WALK_FLAT_SLACK:-0.05} DEPTH_ROOT_SLACK=${WALK_ROOT_SLACK:-0.05}
exec bash "$(dirname "$0")/depth.sh" "$@"
