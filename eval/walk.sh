#!/bin/bash
# walk.sh - how long an interrupt waits for the kernel work that a subsystem D levels down
# brings: images walk-d0 .. -d16 (MANIFEST: walk).  The innermost of D nested levels has one
# task, `tick`, that wakes at every tick and sleeps again at once; its scheduler then idles,
# and its ancestors hear of it (kernel/schedtree.c idle_up, a walk up the levels).  The
# root's task `probe` sleeps until PROBE_STEP * i instructions after a tick, i = 0, 1, ...,
# 999 (subsystems/depthbench), so its samples sweep that work: one due while a thread of
# the work runs preempts it at once, one due in a kernel path waits for what is left of it.
# The median grows with D when that work does, which it does not since the idle walk passes
# the levels that did not change (calm_below; eval/expected.txt holds it); the max is the
# longest an interrupt waits, which must not grow with D (the walk stops for an interrupt
# at every level: kernel/trap.h).  The checks bound the max (DEPTH_CHECK=max):
# depth 16 within WALK_FLAT_SLACK of depth 1 and WALK_ROOT_SLACK of depth 0; the target
# lines hold the goal of 5%.  Each line's depth is D, the image's (DEPTH_BY_IMAGE).
# WALK_IMAGE, WALK_SUFFIX, WALK_AS and WALK_XLABEL make it another sweep (walk-side.sh).
export DEPTH_IMAGE=${WALK_IMAGE:-walk} DEPTH_SUFFIX=${WALK_SUFFIX:-walk}
export EVAL_AS=${WALK_AS:-eval/walk.sh} DEPTH_BY_IMAGE=1 DEPTH_CHECK=max
export DEPTH_XLABEL=${WALK_XLABEL:-"depth of the subsystem that wakes at every tick (0 = the root's own task)"}
export DEPTH_AGAINST="the depth of the work the timer meets"
export DEPTH_FLAT_SLACK=${WALK_FLAT_SLACK:-0.05} DEPTH_ROOT_SLACK=${WALK_ROOT_SLACK:-0.05}
exec bash "$(dirname "$0")/depth.sh" "$@"
