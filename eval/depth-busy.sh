#!/bin/bash
# depth-busy.sh - the depth experiment under load: images depth-busy-d0 .. -d16 are depth-dD
# with a busy task (depthbench's `busy`: an endless loop, best effort, priority 255, the
# lowest, never sleeping) in the root and in every level between it and the innermost
# subsystem, which measures as in depth-dD (depth-busy-d0 is depth-d0: no level is outside
# the innermost).  The benchmark's threads are more urgent than any busy one, so the
# figures should stay flat against depth and close to depth.sh's.  depth.sh does the sweep,
# the data (ID-depth-busy.dat), the plots (depth-busy.png), the checks and the targets.
# The checks are the plain sweep's flatness below the root (3%: depth 16 is 0.5% above
# depth 1) and, against the root, 20%: preempting the parent's busy task (its address space
# and FPU registers, and the levels the dispatch closes) costs about 100 instructions of a
# 1000-instruction timer, which depth-busy-d0, having no level to be busy in, does not pay
# (docs/EVAL.md).
export DEPTH_IMAGE=depth-busy DEPTH_SUFFIX=depth-busy EVAL_AS=eval/depth-busy.sh
export DEPTH_FLAT_SLACK=${BUSY_FLAT_SLACK:-0.03} DEPTH_ROOT_SLACK=${BUSY_ROOT_SLACK:-0.20}
exec bash "$(dirname "$0")/depth.sh" "$@"
