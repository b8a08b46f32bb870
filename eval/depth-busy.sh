#!/bin/bash
# depth-busy.sh - the depth experiment under load: images depth-busy-d0 .. -d16 are depth-dD
# with a busy task (depthbench's `busy`: an endless loop, best effort, priority 255, the
# lowest, never sleeping) in the root and in every level between it and the innermost
# subsystem, which measures as in depth-dD (depth-busy-d0 is depth-d0: no level is outside
# the innermost).  The benchmark's threads are more urgent than any busy one, so the
# figures should stay flat against depth and close to depth.sh's.  depth.sh does the sweep,
# the data (ID-depth-busy.dat), the plots (depth-busy.png), the checks and the targets.
# The checks guard against regressions from today's figures: every figure is flat but the
# timer, which while an ancestor's busy task runs costs 26 instructions more a level (its
# median at depth 16 is 20% above depth 1's and 35% above the root's; docs/EVAL.md).
export DEPTH_IMAGE=depth-busy DEPTH_SUFFIX=depth-busy EVAL_AS=eval/depth-busy.sh
export DEPTH_FLAT_SLACK=${BUSY_FLAT_SLACK:-0.21} DEPTH_ROOT_SLACK=${BUSY_ROOT_SLACK:-0.36}
exec bash "$(dirname "$0")/depth.sh" "$@"
